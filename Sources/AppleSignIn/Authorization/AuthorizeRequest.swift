import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A request to Apple's `/auth/authorize`: builds the URL the browser is sent to.
///
/// Apple's rules are enforced when the URL is built: asking for any scope requires
/// `response_mode=form_post`, and asking for an `id_token` requires `fragment` or `form_post`.
/// `state` and `nonce` default to fresh random 32-byte values; keep both server-side.
///
/// ```swift
/// let request = AuthorizeRequest(clientID: "com.example.app.web", redirectURI: callbackURL)
/// store(state: request.state, nonce: request.nonce)
/// let url = try request.url(appleBaseURL: AppleSignInConfiguration.appleBaseURL)
/// ```
public struct AuthorizeRequest: Sendable, Hashable {
    /// A scope the app may ask for.
    public enum Scope: String, Sendable, Hashable, Codable, CaseIterable {
        /// The person's name.
        case name
        /// The person's email (real or relay).
        case email
    }

    /// What Apple returns.
    public enum ResponseType: String, Sendable, Hashable {
        /// Only an authorization code.
        case code = "code"
        /// A code and an identity token.
        case codeAndIDToken = "code id_token"
    }

    /// How Apple delivers the response to the redirect URI.
    public enum ResponseMode: String, Sendable, Hashable {
        /// In the query string of a redirect.
        case query
        /// In the fragment of a redirect.
        case fragment
        /// As a form the browser POSTs (required when scopes are asked).
        case formPost = "form_post"
    }

    /// The Services ID (or bundle id).
    public var clientID: String
    /// The registered redirect URI.
    public var redirectURI: URL
    /// What to return.
    public var responseType: ResponseType
    /// How to return it.
    public var responseMode: ResponseMode
    /// The scopes asked.
    public var scopes: [Scope]
    /// The anti-CSRF value echoed back.
    public var state: String
    /// The value Apple puts into the identity token's `nonce`.
    public var nonce: String?

    /// Creates a request; by default `code id_token`, `form_post`, name and email, fresh state and nonce.
    public init(
        clientID: String,
        redirectURI: URL,
        responseType: ResponseType = .codeAndIDToken,
        responseMode: ResponseMode = .formPost,
        scopes: [Scope] = [.name, .email],
        state: String = AuthorizeRequest.randomValue(),
        nonce: String? = AuthorizeRequest.randomValue()
    ) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.responseType = responseType
        self.responseMode = responseMode
        self.scopes = scopes
        self.state = state
        self.nonce = nonce
    }

    /// The authorize URL under `appleBaseURL`.
    /// - Throws: ``AuthorizeRequestError`` when the combination breaks Apple's rules.
    public func url(appleBaseURL: URL) throws(AuthorizeRequestError) -> URL {
        if !scopes.isEmpty && responseMode != .formPost {
            throw AuthorizeRequestError(
                .scopesNeedFormPost, "asking for scopes (\(scopes.map(\.rawValue).joined(separator: " "))) requires response_mode=form_post")
        }
        if responseType == .codeAndIDToken && responseMode == .query {
            throw AuthorizeRequestError(.idTokenInQuery, "an id_token cannot be returned in the query; use fragment or form_post")
        }
        var items: [(String, String)] = [
            ("client_id", clientID),
            ("redirect_uri", redirectURI.absoluteString),
            ("response_type", responseType.rawValue),
            ("response_mode", responseMode.rawValue),
            ("state", state),
        ]
        if !scopes.isEmpty { items.append(("scope", scopes.map(\.rawValue).joined(separator: " "))) }
        if let nonce { items.append(("nonce", nonce)) }
        let base = appleBaseURL.absoluteString.trimmingTrailingSlash
        guard let url = URL(string: base + "/auth/authorize?" + FormURLEncoding.encode(items)) else {
            throw AuthorizeRequestError(.baseURLHasPath, "the Apple base URL \(base) cannot take a path")
        }
        return url
    }

    /// 32 random bytes as base64url, from the system's secure generator.
    public static func randomValue() -> String {
        var generator = SystemRandomNumberGenerator()
        return randomValue(using: &generator)
    }

    /// 32 random bytes as base64url, from `generator` (inject one in tests).
    public static func randomValue(using generator: inout some RandomNumberGenerator) -> String {
        Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}

/// An authorization request that breaks Apple's rules: a ``Code`` and a reason.
public struct AuthorizeRequestError: CodedError {
    /// A stable identifier for the problem, e.g. `"scopes_need_form_post"`; the set is closed.
    public typealias Code = ErrorCode<AuthorizeRequestError>

    /// What is wrong.
    public let code: Code
    /// What is wrong, for a person; never key material.
    public let reason: String

    init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

}

extension ErrorCode<AuthorizeRequestError> {
    /// Scopes were asked for with a response mode other than `form_post`.
    public static var scopesNeedFormPost: Self { Self("scopes_need_form_post") }
    /// An `id_token` was asked for in the query.
    public static var idTokenInQuery: Self { Self("id_token_in_query") }
    /// The Apple base URL has a path.
    public static var baseURLHasPath: Self { Self("base_url_has_path") }
}
