import Foundation

/// Creates Apple ID requests and checks credential states, as `ASAuthorizationAppleIDProvider`; backed by
/// a Juice server's loopback bridge, the browser and a loopback listener.
///
/// ```swift
/// let store = CredentialStore(directory: try CredentialStore.defaultDirectory())
/// let provider = AppleIDProvider(server: JuiceServerAPI(baseURL: serverURL), store: store)
/// var request = provider.createRequest()
/// request.requestedScopes = [.fullName, .email]
/// request.nonce = Nonce.sha256Hex(try await provider.server.makeNonce())
/// let authorization = try await AuthorizationController(requests: [request]).performRequests()
///
/// // At launch, as the Juice sample's app delegate does:
/// if try await provider.credentialState(forUserID: savedUserID) != .authorized { showSignIn() }
/// ```
public struct AppleIDProvider: Sendable {
    /// The server whose loopback bridge runs the web flow.
    public let server: JuiceServerAPI
    /// Where saved sessions are kept (the keychain's role).
    public let store: CredentialStore
    /// How the bridge's address is shown to the person.
    public var browser: BrowserOpener
    /// The listener receiving the bridge's answer (its timeout and clock).
    public var receiver: LoopbackReceiver
    /// The source of the request `state` when the request sets none.
    public var random: RandomSource
    /// Where credential states come from (by default the server, with the saved session).
    public var stateSource: any CredentialStateSource

    /// A provider for `server`, keeping sessions in `store`.
    public init(
        server: JuiceServerAPI,
        store: CredentialStore,
        browser: BrowserOpener = BrowserOpener(),
        receiver: LoopbackReceiver = LoopbackReceiver(),
        random: RandomSource = .system,
        stateSource: (any CredentialStateSource)? = nil
    ) {
        self.server = server
        self.store = store
        self.browser = browser
        self.receiver = receiver
        self.random = random
        self.stateSource = stateSource ?? ServerCredentialStateSource(server: server)
    }

    /// A new request with no scopes, nonce or state: set the ones you need.
    public func createRequest() -> AppleIDRequest {
        AppleIDRequest(provider: self)
    }

    /// The state of the Apple ID credential of `userID` (the `user` of an ``AppleIDCredential``).
    /// - Throws: What the ``stateSource`` throws: ``CredentialStoreError`` or ``JuiceServerError`` by default.
    public func credentialState(forUserID userID: String) async throws -> CredentialState {
        try await stateSource.credentialState(forUserID: userID)
    }
}
