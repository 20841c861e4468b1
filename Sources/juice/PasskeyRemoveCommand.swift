import ArgumentParser
import Foundation
import JuiceClient
import JuiceEncodings

/// `juice passkey remove ID`: removes a passkey from the signed-in account, and its key from this machine.
struct PasskeyRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a passkey from the signed-in account by its id (see: juice passkey list); its key here is deleted too.",
        discussion: "The server refuses to remove the account's only way to sign in (no password, no Apple ID, no other passkey)."
    )

    @OptionGroup var options: ClientOptions

    @Argument(help: "The passkey's id, as juice passkey list shows it.")
    var id: String

    func validate() throws {
        guard id.utf8.count <= 2048, let bytes = Base64URL.decode(id), !bytes.isEmpty else {
            throw ValidationError("the id is the base64url text juice passkey list shows")
        }
    }

    func run() async throws {
        let client = try options.connect()
        do {
            let session = try await client.requireSession()
            try await client.api.removePasskey(id: id, sessionToken: session.token)
            if let bytes = Base64URL.decode(id) { try await client.store.removePasskey(credentialID: Data(bytes)) }
            print("Removed the passkey \(id) from your account at \(client.server).")
        } catch let error as JuiceServerError where error.code == .lastSignInMethod {
            throw CLIError("This passkey is your account's only way to sign in; add a password or another passkey first.")
        } catch let error as JuiceServerError where error.code == .notFound {
            throw CLIError("Your account at \(client.server) has no passkey \(id) (see: juice passkey list).")
        } catch let error as JuiceServerError where error.code == .unauthorized {
            throw CLIError("Your session with \(client.server) has ended. Run: juice login")
        } catch {
            throw clientFailure(error)
        }
    }
}
