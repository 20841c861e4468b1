import ArgumentParser
import Foundation
import JuiceClient
import JuiceEncodings

/// `juice passkey add`: registers a new passkey, whose key stays on this machine, with the signed-in account.
struct PasskeyAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Create a passkey on this machine and add it to the signed-in account (needs: juice login).",
        discussion: "The key is saved in passkeys.json before the server is asked, and removed again when the server refuses it."
    )

    @OptionGroup var options: ClientOptions

    @Option(help: "The passkey's name in the account's list (1-64 characters; default: juice on this host).")
    var name: String?

    func validate() throws {
        if let name, name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || name.count > 64 {
            throw ValidationError("--name must have 1 to 64 characters")
        }
    }

    func run() async throws {
        let client = try options.connect()
        do {
            let session = try await client.requireSession()
            let added = try await PasskeySignIn(server: client.api, store: client.store)
                .addPasskey(name: name ?? "juice on \(ProcessInfo.processInfo.hostName)", sessionToken: session.token)
            print("Added the passkey \"\(added.name.terminalEscaped)\" (\(added.algorithm)) to your account at \(client.server).")
            print("Sign in with it: juice login --passkey --server \(client.server)")
        } catch let error as JuiceServerError where error.code == .unauthorized {
            throw CLIError("Your session with \(client.server) has ended. Run: juice login")
        } catch {
            throw clientFailure(error)
        }
    }
}
