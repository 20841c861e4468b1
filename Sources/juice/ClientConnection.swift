import Foundation
import JuiceClient

/// One Juice server and the credentials saved for it: what the client commands work with.
struct ClientConnection {
    /// The server's API client.
    let api: JuiceServerAPI
    /// The saved credentials.
    let store: CredentialStore

    /// The server's URL as people typed it, for messages.
    var server: String { api.baseURL.absoluteString }

    /// The session saved for this server, or `nil` when nobody is signed in.
    func savedSession() async throws -> StoredSession? {
        try await store.session(for: api.baseURL)
    }

    /// The session saved for this server; a readable error saying how to sign in when there is none.
    func requireSession() async throws -> StoredSession {
        guard let session = try await savedSession() else {
            throw CLIError("Not signed in to \(server). Run: juice login")
        }
        return session
    }

    /// Forgets the session saved for this server.
    func forgetSession() async throws {
        try await store.removeSession(for: api.baseURL)
    }
}
