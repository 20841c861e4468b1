import ArgumentParser
import Foundation
import JuiceClient

/// `juice logout`: ends the session at the server and forgets it here.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign out: end the session at the server and forget it here.")

    @OptionGroup var options: ClientOptions

    func run() async throws {
        let client = try options.connect()
        do {
            guard let session = try await client.savedSession() else {
                print("Not signed in to \(client.server).")
                return
            }
            // A session the server already ended (401) only needs forgetting here.
            try await Self.signOut(client.api, token: session.token)
            try await client.forgetSession()
            print("Signed out of \(client.server).")
        } catch {
            throw clientFailure(error)
        }
    }

    private static func signOut(_ api: JuiceServerAPI, token: String) async throws(JuiceServerError) {
        do {
            try await api.signOut(sessionToken: token)
        } catch {
            guard error.code == .unauthorized else { throw error }
        }
    }
}
