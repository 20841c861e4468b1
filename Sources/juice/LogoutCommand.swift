import ArgumentParser
import Foundation
import JuiceClient

/// `juice logout`: ends the session at the server and forgets it here.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign out: end the session at the server and forget it here.")

    @OptionGroup var options: ClientOptions

    func run() async throws {
        let api = try options.api()
        let store = try options.store()
        do {
            guard let session = try await store.session(for: api.baseURL) else {
                print("Not signed in to \(api.baseURL.absoluteString).")
                return
            }
            // A session the server already ended (401) only needs forgetting here.
            try await Self.signOut(api, token: session.token)
            try await store.removeSession(for: api.baseURL)
            print("Signed out of \(api.baseURL.absoluteString).")
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
