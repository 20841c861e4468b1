/// Where an ``AppleIDProvider`` learns the state of a user's Apple ID credential: on Apple platforms the
/// system asks Apple; here the Juice server answers `GET /api/credential-state` for the saved session.
public protocol CredentialStateSource: Sendable {
    /// The state of the credential of the Apple user `userID`.
    /// - Throws: An error when the state cannot be learned (unreachable server, unreadable store).
    func credentialState(forUserID userID: String) async throws -> CredentialState
}

/// The Juice server as a ``CredentialStateSource``: asks `GET /api/credential-state` with the session
/// saved for that server, when that session belongs to the user asked about.
///
/// No saved session, a session of another user, or a session the server no longer accepts (401
/// `unauthorized`) is ``CredentialState/notFound``.
public struct ServerCredentialStateSource: CredentialStateSource {
    /// The server asked.
    public let server: JuiceServerAPI
    /// Where the session is saved.
    public let store: CredentialStore

    /// A source asking `server` with the session saved in `store`.
    public init(server: JuiceServerAPI, store: CredentialStore) {
        self.server = server
        self.store = store
    }

    /// - Throws: ``CredentialStoreError`` or ``JuiceServerError``.
    public func credentialState(forUserID userID: String) async throws -> CredentialState {
        guard let session = try await store.session(for: server.baseURL), session.userIdentifier == userID else { return .notFound }
        do {
            return try await server.credentialState(sessionToken: session.token)
        } catch where error.code == .unauthorized {
            return .notFound
        }
    }
}
