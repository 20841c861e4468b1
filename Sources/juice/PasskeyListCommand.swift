import ArgumentParser
import Foundation
import JuiceClient
import JuiceEncodings

/// `juice passkey list`: the signed-in account's passkeys as the server lists them, marking those whose
/// key this machine holds.
struct PasskeyListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the signed-in account's passkeys; * marks those kept on this machine (needs: juice login)."
    )

    @OptionGroup var options: ClientOptions

    func run() async throws {
        let client = try options.connect()
        do {
            let session = try await client.requireSession()
            let passkeys = try await client.api.passkeys(sessionToken: session.token)
            guard !passkeys.isEmpty else {
                print("Your account at \(client.server) has no passkey. Add one kept here: juice passkey add")
                return
            }
            let held = Set(try await client.store.passkeyCredentialIDs().map { Base64URL.encode($0) })
            print("Passkeys of your account at \(client.server) (* kept on this machine):")
            for passkey in passkeys {
                let used = passkey.lastUsedAt.map { "last used \($0)" } ?? "never used"
                print(
                    "\(held.contains(passkey.id) ? "*" : " ") \(passkey.name.terminalEscaped)  \(passkey.algorithm)  \((passkey.provider ?? "Passkey").terminalEscaped)  added \(passkey.createdAt.terminalEscaped)  \(used.terminalEscaped)  id \(passkey.id.terminalEscaped)"
                )
            }
        } catch let error as JuiceServerError where error.code == .unauthorized {
            throw CLIError("Your session with \(client.server) has ended. Run: juice login")
        } catch {
            throw clientFailure(error)
        }
    }
}
