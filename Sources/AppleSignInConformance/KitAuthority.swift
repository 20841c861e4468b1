import AppleIDEmulator
import Foundation

/// The kit's Apple state during a run: signing keys, the codes it issued, what its endpoints saw.
actor KitAuthority {
    /// A code the kit handed to the backend.
    struct IssuedCode: Sendable {
        let clientID: String
        /// The redirect URI of a web authorization; `nil` for a native one.
        let redirectURI: String?
        /// What the token endpoint's `id_token` says: the same claims as the token that travelled with the code, without `c_hash`.
        let content: TokenMint.IdentityContent
        /// How the token endpoint's `id_token` is damaged.
        let defect: Scenario.Defect
        /// The kit's token endpoint answers `invalid_grant` for it (`code-rejected-by-apple`).
        let refused: Bool
        /// The kit's token endpoint answers 503 `server_error` for it (Apple down).
        var unavailable = false
        /// The kit's token endpoint holds its answer for it (Apple slow), then answers as usual.
        var stalls = false
        var redeemed = false
    }

    /// What `/auth/token` answers.
    enum TokenAnswer: Sendable {
        case tokens(TokenResponseBody)
        case error(code: String, description: String)
        /// Apple is down: 503 `server_error`.
        case unavailable
    }

    private(set) var keys: KitKeys
    private var codes: [String: IssuedCode] = [:]
    private var refreshTokens: [String: (clientID: String, subject: String)] = [:]
    /// The subjects whose refresh or access token the backend revoked.
    private(set) var revokedSubjects: Set<String> = []
    private var accessTokens: [String: String] = [:]
    /// When `/auth/keys` was last fetched.
    private(set) var lastKeyFetch: ContinuousClock.Instant?
    /// The issuer discovery names instead of the tokens' (`native-issuer-drift`), and how often discovery was read.
    private(set) var driftedIssuer: String?
    private(set) var discoveryReads = 0
    /// Problems with the client secrets the backend sent (Apple's descriptions), and how many were valid.
    private(set) var secretProblems: [String] = []
    private(set) var validSecrets = 0
    private let secrets: ConformanceClientSecretCheck
    private let issuer: String

    init(keys: KitKeys, secrets: ConformanceClientSecretCheck, issuer: String) {
        self.keys = keys
        self.secrets = secrets
        self.issuer = issuer
    }

    func rotateKeys() throws {
        try keys.rotate()
    }

    /// Whether `/auth/keys` answers 503 (Apple's key endpoint down).
    private(set) var keysUnavailable = false

    /// `/auth/keys` fails (`true`) or answers again.
    func setKeysUnavailable(_ unavailable: Bool) {
        keysUnavailable = unavailable
    }

    /// Discovery names `issuer` from now on (`nil`: the tokens' issuer again).
    func driftIssuer(to issuer: String?) {
        driftedIssuer = issuer
    }

    /// The issuer discovery names now; records the read.
    func discoveryIssuer() -> String {
        discoveryReads += 1
        return driftedIssuer ?? issuer
    }

    /// `/auth/keys`' body; records the fetch.
    func keySet() throws -> Data {
        lastKeyFetch = .now
        return try keys.keySetJSON()
    }

    /// A new code; redeemed, it yields an `id_token` with `content` (its `code` ignored), damaged by `defect`.
    func issueCode(
        clientID: String, redirectURI: String?, content: TokenMint.IdentityContent, defect: Scenario.Defect, refused: Bool,
        unavailable: Bool = false, stalls: Bool = false
    ) -> String {
        let code = "c" + RandomText.hex32() + ".0.kit." + RandomText.hex32()
        var content = content
        // c_hash belongs to the form_post token only (with no code, none is minted): the token endpoint's carries at_hash.
        content.code = nil
        codes[code] = IssuedCode(
            clientID: clientID, redirectURI: redirectURI, content: content, defect: defect, refused: refused, unavailable: unavailable,
            stalls: stalls)
        return code
    }

    /// Whether the token endpoint holds its answer for `code` (issued with `stalls`).
    func stalls(_ code: String?) -> Bool {
        code.flatMap { codes[$0]?.stalls } ?? false
    }

    /// Whether the backend redeemed `code`.
    func wasRedeemed(_ code: String) -> Bool {
        codes[code]?.redeemed ?? false
    }

    /// `POST /auth/token`, as Apple answers it.
    func token(form: [String: String]) async -> TokenAnswer {
        let clientID = form["client_id"]
        if let problem = await secrets.problem(secret: form["client_secret"], clientID: clientID) {
            secretProblems.append(problem)
            return .error(code: "invalid_client", description: problem)
        }
        validSecrets += 1
        guard let clientID else { return .error(code: "invalid_request", description: "client_id is required") }
        switch form["grant_type"] {
        case "authorization_code":
            if let code = form["code"], codes[code]?.unavailable == true { return .unavailable }
            guard let code = form["code"], var issued = codes[code], !issued.redeemed, !issued.refused else {
                return .error(code: "invalid_grant", description: "The code has expired or has been revoked.")
            }
            guard issued.clientID == clientID else { return .error(code: "invalid_grant", description: "client_id mismatch") }
            if let problem = CodeRedirectRule.problem(issuedWith: issued.redirectURI, presented: form["redirect_uri"]) {
                return .error(code: "invalid_grant", description: problem)
            }
            issued.redeemed = true
            codes[code] = issued
            let refreshToken = "r" + RandomText.hex32() + ".0.kit." + RandomText.hex32()
            refreshTokens[refreshToken] = (clientID, issued.content.subject)
            return tokens(content: issued.content, defect: issued.defect, refreshToken: refreshToken)
        case "refresh_token":
            guard let refreshToken = form["refresh_token"], let known = refreshTokens[refreshToken], known.clientID == clientID else {
                return .error(code: "invalid_grant", description: "The refresh token is invalid.")
            }
            return tokens(content: .init(subject: known.subject, audience: clientID), defect: .none, refreshToken: nil)
        default:
            return .error(code: "unsupported_grant_type", description: "grant_type must be authorization_code or refresh_token")
        }
    }

    /// `POST /auth/revoke`: a valid client secret is all it takes; records whose token was revoked.
    func revoke(form: [String: String]) async -> String? {
        if let problem = await secrets.problem(secret: form["client_secret"], clientID: form["client_id"]) { return problem }
        if let token = form["token"], let subject = refreshTokens[token]?.subject ?? accessTokens[token] { revokedSubjects.insert(subject) }
        return nil
    }

    /// Apple's token response: its `id_token` carries what the authorization's token did (nonce, email,
    /// email_verified, is_private_email, auth_time, nonce_supported, real_user_status), signed by the same key.
    private func tokens(content: TokenMint.IdentityContent, defect: Scenario.Defect, refreshToken: String?) -> TokenAnswer {
        let mint = TokenMint(issuer: issuer, now: Date())
        let accessToken = "a" + RandomText.hex32()
        accessTokens[accessToken] = content.subject
        var content = content
        content.accessToken = accessToken
        do {
            let idToken = try mint.identityToken(content, defect: defect, keys: keys)
            return .tokens(TokenResponseBody(accessToken: accessToken, refreshToken: refreshToken, idToken: idToken))
        } catch {
            return .error(code: "server_error", description: "the kit could not sign a token")
        }
    }
}
