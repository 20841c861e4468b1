import AsyncHTTPClient
import Foundation
import JuiceEncodings
import JuiceHTTP
import Logging
import NIOCore
import NIOHTTP1

/// The Juice server's native API, as an iOS app calls it: nonces, Sign in with Apple, password sign-in,
/// passkeys (``JuiceServerAPI/beginPasskeySignIn()`` and the calls beside it),
/// the account, credential state, sign-out and deletion, plus the address of the loopback bridge.
///
/// Every failure is a ``JuiceServerError``: the server's `{"error", "reason"}` answer with its code,
/// ``JuiceServerError/Code/unreachable`` when no answer came, ``JuiceServerError/Code/unexpectedResponse``
/// for an answer of the wrong shape. Logs at debug level only, without tokens or passwords.
///
/// ```swift
/// let api = JuiceServerAPI(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// let rawNonce = try await api.makeNonce()
/// // … Sign in with Apple with SHA-256(rawNonce) as the request nonce …
/// let session = try await api.signInWithApple(credential, rawNonce: rawNonce)
/// ```
public struct JuiceServerAPI: Sendable {
    /// The body of `POST /api/auth/apple`.
    public struct AppleSignInRequest: Sendable, Hashable, Encodable {
        /// The identity token (JWT).
        public var identityToken: String
        /// The authorization code, for the server to exchange at Apple.
        public var authorizationCode: String?
        /// The raw nonce from ``JuiceServerAPI/makeNonce()`` whose SHA-256 hex was the request nonce.
        public var rawNonce: String
        /// The name Apple gave on the first authorization.
        public var fullName: JuiceAccount.Name?
        /// The email Apple gave on the first authorization.
        public var email: String?

        /// A request body with the given fields.
        public init(identityToken: String, authorizationCode: String?, rawNonce: String, fullName: JuiceAccount.Name? = nil, email: String? = nil) {
            self.identityToken = identityToken
            self.authorizationCode = authorizationCode
            self.rawNonce = rawNonce
            self.fullName = fullName
            self.email = email
        }

        private enum CodingKeys: String, CodingKey {
            case identityToken, authorizationCode, fullName, email
            case rawNonce = "nonce"
        }
    }

    /// The server, e.g. `https://juice.example`.
    public let baseURL: URL
    /// The HTTP client (one per process).
    public var httpClient: HTTPClient
    /// How long one call may take.
    public var timeout: Duration
    /// Where calls are logged, at debug level.
    public var logger: Logger

    /// The client used unless another is given: one per process, failing at once when the server
    /// refuses the connection (instead of retrying until the call's timeout, as a client talking to a
    /// fleet would), so an unreachable server is reported within a moment.
    public static let defaultHTTPClient: HTTPClient = OutgoingHTTP.makeClient {
        $0.connectionPool.retryConnectionEstablishment = false
        $0.timeout.connect = .seconds(10)
    }

    /// The largest response body read.
    static let maximumResponseSize = 1 << 20

    /// An API client for the server at `baseURL`.
    public init(
        baseURL: URL,
        httpClient: HTTPClient = JuiceServerAPI.defaultHTTPClient,
        timeout: Duration = .seconds(30),
        logger: Logger = Logger(label: "juice-client", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.baseURL = baseURL
        self.httpClient = httpClient
        self.timeout = timeout
        self.logger = logger
    }

    // MARK: - Sign-in

    /// `POST /api/auth/nonce`: a fresh single-use nonce (valid ten minutes). Pass its SHA-256 hex to Apple
    /// as the request nonce (``Nonce/sha256Hex(_:)``) and the raw value to ``signInWithApple(_:)``.
    public func makeNonce() async throws(JuiceServerError) -> String {
        let object = try await jsonObject(.POST, "api/auth/nonce")
        guard let nonce = object["nonce"] as? String, !nonce.isEmpty else {
            throw .unexpectedResponse(status: 200, "the nonce answer has no \"nonce\"")
        }
        return nonce
    }

    /// The address of the loopback bridge that runs the web flow and hands Apple's answer to `redirectURI`:
    /// `GET /auth/apple/native?redirect_uri=…&state=…&nonce=…` (and `scope=` when scopes are asked).
    public func loopbackBridgeURL(redirectURI: URL, state: String, nonce: String?, scopes: [AuthorizationScope]) -> URL {
        var query = [("redirect_uri", redirectURI.absoluteString), ("state", state)]
        if let nonce { query.append(("nonce", nonce)) }
        if !scopes.isEmpty { query.append(("scope", scopes.map(\.webName).joined(separator: " "))) }
        return endpoint("auth/apple/native", query: query)
    }

    /// `POST /api/auth/apple`: signs in with an Apple ID credential, exactly as an iOS app sends it.
    public func signInWithApple(_ request: AppleSignInRequest) async throws(JuiceServerError) -> ServerSession {
        try await decode(ServerSession.self, .POST, "api/auth/apple", body: request)
    }

    /// `POST /api/auth/apple` with the fields of `credential` and the raw nonce.
    /// - Throws: ``JuiceServerError/Code/invalidRequest`` (without calling the server) when the credential
    ///   has no identity token, as one reused from a saved session.
    public func signInWithApple(_ credential: AppleIDCredential, rawNonce: String) async throws(JuiceServerError) -> ServerSession {
        guard let token = credential.identityToken.flatMap({ String(data: $0, encoding: .utf8) }) else {
            throw JuiceServerError(.invalidRequest, "the Apple ID credential has no identity token")
        }
        let name = credential.fullName.map { JuiceAccount.Name(givenName: $0.givenName, familyName: $0.familyName) }
        return try await signInWithApple(
            AppleSignInRequest(
                identityToken: token,
                authorizationCode: credential.authorizationCode.flatMap { String(data: $0, encoding: .utf8) },
                rawNonce: rawNonce,
                fullName: name?.givenName == nil && name?.familyName == nil ? nil : name,
                email: credential.email
            )
        )
    }

    /// `POST /api/auth/password`: signs in with a user name and password.
    public func signInWithPassword(_ credential: PasswordCredential) async throws(JuiceServerError) -> ServerSession {
        try await decode(ServerSession.self, .POST, "api/auth/password", body: ["username": credential.user, "password": credential.password])
    }

    /// `POST /api/accounts`: creates a password account and signs in.
    public func createAccount(_ credential: PasswordCredential) async throws(JuiceServerError) -> ServerSession {
        try await decode(ServerSession.self, .POST, "api/accounts", body: ["username": credential.user, "password": credential.password])
    }

    // MARK: - Signed in

    /// `GET /api/me`: the signed-in account.
    public func account(sessionToken: String) async throws(JuiceServerError) -> JuiceAccount {
        try await decode(JuiceAccount.self, .GET, "api/me", sessionToken: sessionToken)
    }

    /// `GET /api/credential-state`: the state of the signed-in user's Apple ID credential.
    ///
    /// Accepts `{"state": "authorized"}`, `{"credentialState": "authorized"}` or the bare JSON string.
    public func credentialState(sessionToken: String) async throws(JuiceServerError) -> CredentialState {
        let (status, data) = try await send(.GET, "api/credential-state", sessionToken: sessionToken)
        return try Self.credentialState(status: status, data)
    }

    private static func credentialState(status: Int, _ data: Data) throws(JuiceServerError) -> CredentialState {
        let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        let object = value as? [String: Any]
        guard let name = (value as? String) ?? (object?["state"] as? String) ?? (object?["credentialState"] as? String),
            let state = CredentialState(name: name)
        else {
            throw .unexpectedResponse(status: status, "the credential state is not one of authorized, revoked, notFound, transferred")
        }
        return state
    }

    /// `GET /api/credential-state?user=…`: the state of the Apple user `userID`'s credential, as
    /// `ASAuthorizationAppleIDProvider.getCredentialState(forUserID:)` asks Apple (no session needed:
    /// a revoked user's sessions have ended, and the answer must still say `revoked`).
    public func credentialState(forUserID userID: String) async throws(JuiceServerError) -> CredentialState {
        let (status, data) = try await send(.GET, "api/credential-state", query: [("user", userID)])
        return try Self.credentialState(status: status, data)
    }

    /// `POST /api/signout`: ends the session at the server.
    public func signOut(sessionToken: String) async throws(JuiceServerError) {
        _ = try await send(.POST, "api/signout", sessionToken: sessionToken)
    }

    /// `DELETE /api/account`: deletes the account (the server revokes its Apple tokens).
    public func deleteAccount(sessionToken: String) async throws(JuiceServerError) {
        _ = try await send(.DELETE, "api/account", sessionToken: sessionToken)
    }

    // MARK: - HTTP

    func endpoint(_ path: String, query: [(String, String)] = []) -> URL {
        let url = baseURL.appendingPathComponent(path)
        guard !query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.percentEncodedQuery = FormURLComponent.encode(fields: query)
        return components.url ?? url
    }

    func decode<Value: Decodable>(
        _ type: Value.Type,
        _ method: HTTPMethod,
        _ path: String,
        sessionToken: String? = nil,
        body: (some Encodable & Sendable)? = String?.none
    ) async throws(JuiceServerError) -> Value {
        let (status, data) = try await send(method, path, sessionToken: sessionToken, body: body)
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw .unexpectedResponse(status: status, "the answer to \(method) /\(path) is not the documented JSON")
        }
    }

    private func jsonObject(_ method: HTTPMethod, _ path: String) async throws(JuiceServerError) -> [String: Any] {
        let (status, data) = try await send(method, path)
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw .unexpectedResponse(status: status, "the answer to \(method) /\(path) is not a JSON object")
        }
        return object
    }

    /// Sends one request; a 2xx answer's status and body, or the error it describes.
    func send(
        _ method: HTTPMethod,
        _ path: String,
        query: [(String, String)] = [],
        sessionToken: String? = nil,
        body: (some Encodable & Sendable)? = String?.none
    ) async throws(JuiceServerError) -> (Int, Data) {
        var request = HTTPClientRequest(url: endpoint(path, query: query).absoluteString)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        if let sessionToken { request.headers.add(name: "Authorization", value: "Bearer \(sessionToken)") }
        if let body {
            let encoded: Data
            do {
                encoded = try JSONEncoder().encode(body)
            } catch {
                throw JuiceServerError(.invalidRequest, "cannot encode the body of \(method) /\(path)")
            }
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: encoded))
        }
        let status: Int
        let bytes: ByteBuffer
        do {
            // One deadline for the whole exchange (head and body), a bounded body, no redirects.
            let response = try await httpClient.boundedExecute(request, deadline: timeout, maximumBodySize: Self.maximumResponseSize, logger: logger)
            status = Int(response.status.code)
            bytes = response.body
        } catch .bodyTooLarge(let status, _) {
            throw .unexpectedResponse(status: status, "the answer to \(method) /\(path) is larger than \(Self.maximumResponseSize) bytes")
        } catch {
            logger.debug("juice server unreachable", metadata: ["path": "\(path)", "error": "\(error)"])
            throw .unreachable("cannot reach the Juice server at \(baseURL.absoluteString) (\(Self.summary(of: error)))")
        }
        let data = Data(bytes.readableBytesView)
        logger.debug("juice server answered", metadata: ["method": "\(method)", "path": "\(path)", "status": "\(status)"])
        guard (200..<300).contains(status) else { throw Self.error(status: status, body: data) }
        return (status, data)
    }

    /// The error a non-2xx answer describes: its `{"error", "reason"}`, or the bare status.
    static func error(status: Int, body: Data) -> JuiceServerError {
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        guard let code = object?["error"] as? String, !code.isEmpty else {
            return .unexpectedResponse(status: status, "the server answered HTTP \(status) without an error body")
        }
        let reason = (object?["reason"] as? String).map { String($0.prefix(500)) } ?? "the server answered \"\(code)\""
        return JuiceServerError(serverCode: code, status: status, reason: reason)
    }

    /// A short, secret-free description of a transport failure.
    static func summary(of error: any Error) -> String {
        switch error {
        case OutgoingHTTPFailure.deadlineExceeded, OutgoingHTTPFailure.connectTimeout:
            "timed out"
        case let error as OutgoingHTTPFailure:
            error.description
        case let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout:
            "timed out"
        case is HTTPClientError:
            "\(error)"
        default:
            "\(error)".prefix(200).description
        }
    }
}
