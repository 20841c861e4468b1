import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `juice conformance` is pointed at: the backend under test, the port the kit serves Apple on,
/// and the backend's Apple settings (team, key, client ids, redirect URI) and endpoints.
///
/// ```swift
/// var options = ConformanceOptions(
///     backend: "http://127.0.0.1:9000", port: 9100, teamID: "ABCDE12345", keyID: "KEY1234567",
///     teamPublicKeyPEM: try ConformanceOptions.teamPublicKeyPEM(fromPEM: p8Text),
///     clientID: "com.example.web", redirectURI: "http://127.0.0.1:9000/auth/apple/callback")
/// options.probePath = "/me"
/// let report = try await ConformanceRun(options: options).run()
/// ```
public struct ConformanceOptions: Sendable {
    /// The backend's base URL, e.g. `http://127.0.0.1:9000` (no trailing slash needed).
    public var backend: String
    /// The loopback port the kit serves Apple on; the backend uses `http://127.0.0.1:PORT` as Apple's base URL.
    public var port: Int
    /// The `iss` of the kit's tokens (default: the kit's base URL).
    public var issuer: String?
    /// The backend's team id.
    public var teamID: String
    /// The id of the backend's Sign in with Apple key.
    public var keyID: String
    /// The public half of that key, PEM; the kit checks the backend's client secrets with it.
    public var teamPublicKeyPEM: String
    /// The Services ID the backend's web sign-in uses.
    public var clientID: String
    /// The backend's registered redirect URI (its form_post callback).
    public var redirectURI: String
    /// The app's bundle id (native sign-ins and notifications); default: ``clientID``.
    public var bundleID: String?
    /// How a web sign-in starts.
    public enum StartMethod: String, Sendable, CaseIterable {
        /// `GET` the start path; it redirects to the kit's `/auth/authorize`.
        case get = "GET"
        /// `GET` the start path, a page with a form, and submit its first form (hidden fields, CSRF token
        /// included) as a browser does; the answer redirects to the kit's `/auth/authorize`.
        case post = "POST"
    }

    /// The path that starts a web sign-in (redirects to the kit's `/auth/authorize`, or with
    /// ``startMethod`` `.post` shows the form that does); `nil` for an API-only backend, which needs
    /// ``nativePath``: the web cases are then SKIPPED with the reason, the native ones run.
    public var startPath: String? = "/auth/apple"
    /// How the web sign-in starts (default: `GET`).
    public var startMethod = StartMethod.get
    /// A path answering 2xx only to a signed-in browser (checked after each web callback), if any.
    public var probePath: String?
    /// The native sign-in endpoint (JSON), if the backend has one.
    public var nativePath: String?
    /// The shape of the native sign-in's JSON body (default: Juice's, Apple's credential names).
    public var nativeBody = NativeBody.juice
    /// An endpoint issuing the nonce for a native sign-in (`POST`, answers `{"nonce": …}`), if the backend requires its own.
    public var nativeNoncePath: String?
    /// The server-to-server notification endpoint, if the backend has one.
    public var notificationsPath: String?
    /// The backend's account-deletion endpoint (`POST` by a signed-in browser), if any: deleting must call `/auth/revoke`.
    public var deletePath: String?
    /// How long one request to the backend may take before it counts as a timeout.
    public var requestTimeout: Duration = .seconds(10)
    /// How long the backend may take to refuse a native sign-in while Apple's token endpoint stalls
    /// (`native-apple-slow`): its own deadline on Apple plus its answer. Juice waits 10 s for Apple.
    public var appleStallBound: Duration = .seconds(15)
    /// How long the kit leaves the backend's key cache alone before rotating keys: a backend may
    /// rightly refetch Apple's keys at most this often (Juice: every 10 s). A backend that takes longer
    /// to refetch for an unknown `kid` gets a WARNING on `key-rotation`.
    public var keyRefetchInterval: Duration = .seconds(11)
    /// How long the kit keeps signing in with a rotated key before it concludes that the backend never
    /// refetches Apple's keys (`key-rotation` FAILED).
    public var keyRotationWindow: Duration = .seconds(60)
    /// Apple's discovery document names `https://account.apple.com` for the whole run (`--drifted-discovery`),
    /// as it did from June 2025: a backend that reads discovery once per process, started during the run,
    /// reads the drifted issuer (`web-issuer-drift`, `native-issuer-drift`).
    public var driftedDiscovery = false
    /// The ids of the cases to play (`nil`: every case). A case a played one builds on (`sign-in` for the web
    /// refusals and `key-rotation`) should be among them, or those cases cannot be judged.
    public var caseIDs: Set<String>?

    /// Creates options with the required settings; the endpoints default to none except ``startPath``.
    public init(
        backend: String, port: Int, issuer: String? = nil, teamID: String, keyID: String, teamPublicKeyPEM: String, clientID: String,
        redirectURI: String, bundleID: String? = nil
    ) {
        self.backend = backend.hasSuffix("/") ? String(backend.dropLast()) : backend
        self.port = port
        self.issuer = issuer
        self.teamID = teamID
        self.keyID = keyID
        self.teamPublicKeyPEM = teamPublicKeyPEM
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.bundleID = bundleID
    }

    /// The kit's base URL: what the backend must use as Apple's base URL.
    public var appleBaseURL: String { "http://127.0.0.1:\(port)" }
    /// The issuer of the kit's tokens.
    var effectiveIssuer: String { issuer ?? appleBaseURL }
    /// The backend's origin (`scheme://host:port`), which same-origin redirects must keep.
    var backendOrigin: String { Self.origin(of: backend) ?? backend }
    /// The audience of native tokens and notifications.
    var appAudience: String { bundleID ?? clientID }
    /// Every client id the kit's token endpoint knows: the bundle id first.
    var clientIDs: [String] {
        var ids = [appAudience]
        if clientID != appAudience { ids.append(clientID) }
        return ids
    }

    /// The public PEM of a team key given as its `.p8` (PKCS#8 private key) or as a public-key PEM.
    /// - Throws: ``ConformanceStartError`` when the text is neither (the message never echoes the key).
    public static func teamPublicKeyPEM(fromPEM text: String) throws(ConformanceStartError) -> String {
        if let privateKey = try? P256.Signing.PrivateKey(pemRepresentation: text) {
            return privateKey.publicKey.pemRepresentation
        }
        if let publicKey = try? P256.Signing.PublicKey(pemRepresentation: text) {
            return publicKey.pemRepresentation
        }
        throw ConformanceStartError(.invalidOptions, "the team key is neither a P-256 .p8 private key nor a P-256 public key PEM")
    }

    /// Problems with the options that make a run impossible.
    func problems() -> [String] {
        var problems: [String] = []
        if !(1...65_535).contains(port) { problems.append("--port must be between 1 and 65535") }
        if !Self.isHTTPURL(backend) { problems.append("--backend must be an absolute http(s) URL, e.g. http://127.0.0.1:9000") }
        if !Self.isHTTPURL(redirectURI) { problems.append("--redirect-uri must be an absolute http(s) URL") }
        if startPath == nil, nativePath == nil { problems.append("an API-only run (--api-only) needs --native: the kit needs a sign-in to judge") }
        for (name, value) in [("--team-id", teamID), ("--key-id", keyID), ("--client-id", clientID)] where value.isEmpty {
            problems.append("\(name) must not be empty")
        }
        for (name, path) in [
            ("--start", startPath), ("--probe", probePath), ("--native", nativePath), ("--native-nonce", nativeNoncePath),
            ("--notifications", notificationsPath), ("--delete", deletePath),
        ] {
            if let path, !path.hasPrefix("/") { problems.append("\(name) must be a path starting with /") }
        }
        return problems
    }

    /// `scheme://host[:port]` of `url`, lowercased, or `nil`.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased()
        else { return nil }
        return components.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }

    private static func isHTTPURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), url.host != nil else { return false }
        return scheme == "http" || scheme == "https"
    }
}
