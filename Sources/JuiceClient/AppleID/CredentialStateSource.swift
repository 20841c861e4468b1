/// Where an ``AppleIDProvider`` learns the state of a user's Apple ID credential: on Apple platforms the
/// system asks Apple; here the Juice server answers `GET /api/credential-state?user=…`.
public protocol CredentialStateSource: Sendable {
    /// The state of the credential of the Apple user `userID`.
    /// - Throws: An error when the state cannot be learned (unreachable server, unreadable store).
    func credentialState(forUserID userID: String) async throws -> CredentialState
}

/// The Juice server as a ``CredentialStateSource``: `GET /api/credential-state?user=…`, which needs no
/// session — a revoked user's sessions have ended, and the answer must still be `revoked`.
public struct ServerCredentialStateSource: CredentialStateSource {
    /// The server asked.
    public let server: JuiceServerAPI

    /// A source asking `server`.
    public init(server: JuiceServerAPI) {
        self.server = server
    }

    /// - Throws: ``JuiceServerError``.
    public func credentialState(forUserID userID: String) async throws -> CredentialState {
        try await server.credentialState(forUserID: userID)
    }
}
