import AppleIDEmulator

/// One conformance case: a small value saying what the kit sends and what a correct backend does.
///
/// A case is a flow, a list of perturbations (each a small named rule: a failure of Apple's, a token
/// Apple would never mint, …) and the expected outcome. Add one by adding a value to ``ConformanceCatalog``.
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
    /// What the kit changes in the correct sign-in, in order.
    let perturbations: [any Perturbation]
    /// One line telling a failing backend what to fix.
    public let hint: String
    /// Where the rule comes from: Apple's documentation or technote, or the OpenID Connect / OAuth section.
    public let reference: String

    init(
        _ id: String, _ title: String, expect: Expectation, level: Level = .required, flow: Flow = .web, _ perturbations: [any Perturbation] = [],
        hint: String, reference: String
    ) {
        self.id = id
        self.title = title
        self.expect = expect
        self.level = level
        self.flow = flow
        self.perturbations = perturbations
        self.hint = hint
        self.reference = reference
    }

    /// What the case plays: the correct sign-in, changed by each perturbation.
    var plan: SignInPlan { SignInPlan(perturbations) }

    /// Cases are equal when their ids are: the id is the case.
    public static func == (left: ConformanceCase, right: ConformanceCase) -> Bool {
        left.id == right.id
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }
}
