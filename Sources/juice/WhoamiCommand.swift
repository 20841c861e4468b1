import ArgumentParser
import Foundation
import JuiceClient

/// `juice whoami`: who is signed in, checking the Apple ID's credential state first, as the Juice
/// sample's app delegate does at launch.
struct WhoamiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Show the signed-in account; a revoked or unknown Apple ID clears the saved credentials (exit 1)."
    )

    @OptionGroup var options: ClientOptions

    func run() async throws {
        let client = try options.connect()
        let api = client.api
        do {
            let session = try await client.requireSession()
            if let user = session.userIdentifier {
                let state = try await api.credentialState(forUserID: user)
                guard state == .authorized else {
                    try await client.forgetSession()
                    throw CLIError(Self.message(for: state))
                }
            }
            guard let account = try await Self.account(api, token: session.token) else {
                try await client.forgetSession()
                // A revocation ends the sessions and the credential together: a session refused just
                // after the state read "authorized" may be that revocation, so ask again.
                if let user = session.userIdentifier {
                    let state = try await api.credentialState(forUserID: user)
                    if state != .authorized { throw CLIError(Self.message(for: state)) }
                }
                throw CLIError("Your session has ended; the saved credentials were cleared. Run: juice login")
            }
            print(describe(account))
        } catch {
            throw clientFailure(error)
        }
    }

    /// The account, or `nil` when the server no longer accepts the session.
    static func account(_ api: JuiceServerAPI, token: String) async throws(JuiceServerError) -> JuiceAccount? {
        do {
            return try await api.account(sessionToken: token)
        } catch {
            guard error.code == .unauthorized else { throw error }
            return nil
        }
    }

    static func message(for state: CredentialState) -> String {
        switch state {
        case .revoked:
            "Your Apple ID credential was revoked (Sign in with Apple was stopped for Juice, or the Apple ID was deleted). "
                + "You are signed out; the saved credentials were cleared."
        case .transferred:
            "Juice moved to another developer team: your Apple ID has a new identifier here. Sign in again with: juice login --apple"
        case .notFound:
            "The server does not know your Apple ID (the account was deleted?). The saved credentials were cleared."
        case .authorized:
            "authorized"
        }
    }
}
