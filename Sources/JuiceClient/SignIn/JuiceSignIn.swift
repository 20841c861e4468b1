/// The Juice sample's native sign-in on top of the AuthenticationServices-shaped API: get a nonce from the
/// server, request an Apple ID credential with name and email through the browser, send it to
/// `POST /api/auth/apple` exactly as the iOS app does, and keep the session and the user identifier in the
/// ``CredentialStore``.
///
/// ```swift
/// let signIn = JuiceSignIn(provider: AppleIDProvider(server: JuiceServerAPI(baseURL: serverURL), store: store))
/// let result = try await signIn.signInWithApple()
/// print("Signed in as \(result.session.account.name?.givenName ?? result.session.account.id)")
/// ```
public struct JuiceSignIn: Sendable {
    /// A finished sign-in: the server's session and the credential it was obtained with.
    public struct Result: Sendable, Hashable {
        /// The server's session (saved in the store).
        public let session: ServerSession
        /// The credential sent to the server.
        public let credential: AuthorizationCredential
    }

    /// The Apple ID provider (with the server, the store, the browser and the loopback listener).
    public let provider: AppleIDProvider

    /// The server signed in to.
    public var server: JuiceServerAPI { provider.server }
    /// Where the session is kept.
    public var store: CredentialStore { provider.store }

    /// A sign-in through `provider`.
    public init(provider: AppleIDProvider) {
        self.provider = provider
    }

    /// Signs in with Apple: nonce, browser, `POST /api/auth/apple`, saved session.
    /// - Throws: ``AuthorizationError`` from the Apple ID flow (``AuthorizationError/Code/canceled`` when the
    ///   person cancels or the wait times out), ``JuiceServerError`` from the server,
    ///   ``CredentialStoreError`` when the session cannot be saved.
    public func signInWithApple(scopes: [AuthorizationScope] = [.fullName, .email]) async throws -> Result {
        let rawNonce = try await server.makeNonce()
        var request = provider.createRequest()
        request.requestedScopes = scopes
        request.nonce = Nonce.sha256Hex(rawNonce)
        request.requestedOperation = .operationLogin
        guard case .appleID(let credential) = try await AuthorizationController(requests: [request]).performRequests().credential else {
            throw AuthorizationError.unknown("the Apple ID request returned another kind of credential")
        }
        let session = try await server.signInWithApple(credential, rawNonce: rawNonce)
        try await store.saveSession(
            StoredSession(token: session.token, userIdentifier: credential.user, accountID: session.account.id), for: server.baseURL)
        return Result(session: session, credential: .appleID(credential))
    }

    /// Signs in with a user name and password (`POST /api/auth/password`) and saves the session; with
    /// `savePassword`, also saves the password for the next ``PasswordRequest``.
    /// - Throws: ``JuiceServerError`` from the server, ``CredentialStoreError`` when saving fails.
    public func signIn(with credential: PasswordCredential, savePassword: Bool = false) async throws -> Result {
        let session = try await server.signInWithPassword(credential)
        try await store.saveSession(StoredSession(token: session.token, accountID: session.account.id), for: server.baseURL)
        if savePassword { try await store.savePassword(credential, for: server.baseURL) }
        return Result(session: session, credential: .password(credential))
    }
}
