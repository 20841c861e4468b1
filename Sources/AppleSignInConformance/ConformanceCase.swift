/// One conformance case: a small value saying what the kit sends and what a correct backend does.
///
/// Add a case by adding a value to ``ConformanceCatalog``; the runner knows how to play each
/// ``Scenario``.
public struct ConformanceCase: Sendable, Hashable {
    /// What a correct backend does with the input.
    public enum Expectation: String, Sendable, Hashable, Codable {
        /// Signs in (web: 2xx/3xx and the probe 2xx; native and notifications: 2xx).
        case accept
        /// Answers 4xx (web: or the probe is not 2xx).
        case refuse
    }

    /// Whether a failure fails the run (`required`), is a warning (`recommended`), or the case only
    /// reports what the backend does (`information`).
    public enum Level: String, Sendable, Hashable, Codable {
        /// A failure fails the run (exit status 1).
        case required
        /// A failure is a warning.
        case recommended
        /// Never fails: the verdict is PASSED when the case could be played, and the detail says what was seen.
        case information
    }

    /// Which backend endpoint the case drives.
    public enum Flow: String, Sendable, Hashable {
        /// The web flow: start URL, then Apple's cross-site form_post to the redirect URI.
        case web
        /// The native endpoint (`--native`).
        case native
        /// The notification endpoint (`--notifications`).
        case notification
        /// No request of its own: judged from what the kit's token endpoint saw.
        case clientSecrets
        /// Judged from the authorization request the start URL redirects to.
        case authorizationRequest
        /// A web sign-in, then the backend's account-deletion endpoint (`--delete`): it must call `/auth/revoke`.
        case deletion
        /// The web and native sign-ins judged together: each audience accepted on its own path, a third refused.
        case audiences
        /// A web sign-in, then a notification about that user (`--notifications`): the session must stop working.
        case sessionAfterNotification
    }

    /// The stable id (`sign-in`, `id-token-alg-none`, …).
    public let id: String
    /// One line saying what is sent.
    public let title: String
    /// What a correct backend does.
    public let expect: Expectation
    /// Whether a failure fails the run.
    public let level: Level
    /// The endpoint it drives.
    public let flow: Flow
    /// What the kit alters.
    let scenario: Scenario
    /// One line telling a failing backend what to fix.
    public let hint: String
    /// Where the rule comes from: Apple's documentation or technote, or the OpenID Connect / OAuth section.
    public let reference: String

    init(
        _ id: String, _ title: String, expect: Expectation, level: Level = .required, flow: Flow = .web, scenario: Scenario = Scenario(),
        hint: String, reference: String
    ) {
        self.id = id
        self.title = title
        self.expect = expect
        self.level = level
        self.flow = flow
        self.scenario = scenario
        self.hint = hint
        self.reference = reference
    }
}

/// What a case alters in what the kit sends; the default is a correct sign-in by a returning user.
struct Scenario: Sendable, Hashable {
    /// How the identity token (or notification) is damaged.
    enum Defect: Sendable, Hashable {
        case none
        case badSignature
        case algNone
        case hs256WithPublicKey
        case unknownKeyID
        case wrongIssuer
        case wrongAudience
        case expired
        case nonceMismatch
        case nonceMissing
        case codeHashMismatch
        case issuedInFuture
        /// `iat` a few seconds ahead: within any sane clock skew.
        case issuedSecondsAhead
    }

    /// Which identity tokens carry the defect: the form_post one, the one the token endpoint returns for the code, or both.
    enum Channels: Sendable, Hashable {
        case every
        case formPostOnly
        case tokenEndpointOnly
    }

    /// Who signs in.
    enum Person: Sendable, Hashable {
        /// The run's main Apple ID, first sign-in: `user` carries name and email.
        case newUser
        /// The main Apple ID again: no `user`.
        case returningUser
        /// A fresh Apple ID that hid its email: a relay address on `domain`, `is_private_email` true.
        case privateEmailUser(domain: String)
        /// A fresh Apple ID whose `user` field names another email than the token's.
        case userEmailDiffers
    }

    /// How the email booleans are written.
    enum Booleans: Sendable, Hashable {
        case json
        case strings
    }

    /// Which `state` the form_post carries.
    enum State: Sendable, Hashable {
        case issued
        case neverIssued
        /// A state the backend already consumed in an accepted sign-in, with a fresh code and token.
        case replayed
    }

    var defect = Defect.none
    var channels = Channels.every
    var person = Person.returningUser
    var booleans = Booleans.json
    var state = State.issued
    /// The kit's token endpoint answers `invalid_grant` for the code.
    var codeRefusedByApple = false
    /// The native body carries the identity token and no authorization code (`--native-body rest-auth`:
    /// an `access_token` of the kit's invention instead).
    var withoutCode = false
    /// A fresh Apple ID whose token carries no email (a Work & School account whose organization shares none).
    var withoutEmail = false
    /// The same native body (identity token, code, nonce) is posted twice; the second is judged.
    var replayed = false
    /// The kit's token endpoint answers 503 `server_error` for the code: Apple is down.
    var appleUnavailable = false
    /// The kit's token endpoint holds its answer for the code past ``ConformanceOptions/appleStallBound``: Apple is slow.
    var appleStalls = false
    /// The native tokens are for a third client id of the team (neither the Services ID nor the bundle id).
    var thirdAudience = false
    /// The kit's discovery names the issuer `https://account.apple.com` while its tokens keep theirs (June 2025).
    var issuerDrift = false
    /// After a first sign-in (keys up), the kit's `/auth/keys` answers 503 while a second one is judged.
    var keysUnavailable = false
    /// Rotate to a new signing key (and `kid`) the backend has never seen before this case.
    var rotateKeys = false
    /// The notification's event type (`email-enabled`, `consent-revoked`, `account-delete`).
    var notificationType = "email-enabled"
    /// The notification's `events` claim is a JSON object, not the JSON string Apple sends.
    var eventsAsObject = false
}
