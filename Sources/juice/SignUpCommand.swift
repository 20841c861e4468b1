import ArgumentParser
import Foundation
import JuiceClient

/// `juice signup --passkey`: creates an account with a passkey alone, its key kept on this machine.
struct SignUpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup",
        abstract: "Create an account on a Juice server with a passkey alone (no password), kept on this machine.",
        discussion: """
            The server gives the challenge and the new account's user handle, a passkey is made here (a \
            P-256 key in passkeys.json in $JUICE_HOME, mode 0600) and the account is created with it and \
            signed in. Sign in again later with: juice login. Without --username the account has no \
            username (add one with a password later, on the account page).
            """
    )

    @OptionGroup var options: ClientOptions

    @Flag(help: "Sign up with a passkey made on this machine (the only way this command signs up).")
    var passkey = false

    @Option(help: "The new account's username (3-64 characters; default: none).")
    var username: String?

    @Option(help: "The passkey's name in the account's list (1-64 characters; default: juice on this host).")
    var name: String?

    func validate() throws {
        guard passkey else { throw ValidationError("juice signup needs --passkey (a password account is made on the sign-up page)") }
        if let username, username.isEmpty || username.count > 64 { throw ValidationError("--username must have 1 to 64 characters") }
        if let name, name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || name.count > 64 {
            throw ValidationError("--name must have 1 to 64 characters")
        }
    }

    func run() async throws {
        let client = try options.connect()
        do {
            let session = try await PasskeySignIn(server: client.api, store: client.store)
                .signUp(username: username, passkeyName: name ?? "juice on \(ProcessInfo.processInfo.hostName)")
            print("Created your account at \(client.server) with a passkey kept here; signed in as \(describe(session.account)).")
            print("Sign in again with: juice login --server \(client.server)")
        } catch let error as JuiceServerError where error.code == .usernameTaken {
            throw CLIError("The username \(username ?? "") is taken at \(client.server); choose another.")
        } catch {
            throw clientFailure(error)
        }
    }
}
