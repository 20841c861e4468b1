import AppleIDEmulator
import Foundation
import JuiceEncodings

/// Plays the cases of one run against the backend, in order, each web case in a browser of its own
/// (its own cookie jar), keeping who has signed in so far.
struct CasePlayer {
    /// What a web sign-in's start left the browser with.
    struct WebStart {
        let state: String
        let nonce: String?
        var cookies: CookieJar
    }

    /// What a form_post led to: the observation and, when a probe answered 2xx, its body.
    struct Delivery {
        let observation: Observation
        var probeBody: String?
    }

    /// Why a step before the judged request failed.
    struct StepFailure: Error {
        let observation: Observation
    }

    /// Why the start URL is unusable (exit status 2 when it happens before the first case).
    struct StartProblem: Error {
        let reason: String
    }

    /// The flows that begin with a web sign-in (`--start`).
    static let webStartFlows: Set<ConformanceCase.Flow> = [.web, .authorizationRequest, .deletion, .sessionAfterNotification]
    /// Why a web case is SKIPPED for an API-only backend.
    static let noWebStart = "an API-only run (--api-only): the backend has no web sign-in to play"

    /// How many same-origin redirects the kit follows, as a browser does, before it stops.
    static let maximumRedirects = 5

    let options: ConformanceOptions
    let authority: KitAuthority
    let client: BackendClient

    /// The run's main Apple ID (web sign-in, returning user, notifications).
    let mainSubject = RandomText.subject()
    let mainEmail = "ada.\(RandomText.hex32().prefix(8))@example.com"
    /// The native sign-in's Apple ID.
    let nativeSubject = RandomText.subject()

    /// Plays one case; `earlier` holds the verdicts so far (the channel cases decide whether `c_hash` applies).
    func play(_ conformanceCase: ConformanceCase, earlier: [String: ConformanceReport.CaseResult]) async -> Observation {
        if options.startPath == nil, Self.webStartFlows.contains(conformanceCase.flow) {
            return .skipped(Self.noWebStart)
        }
        do {
            switch conformanceCase.flow {
            case .web: return try await playWeb(conformanceCase.scenario, earlier: earlier)
            case .native: return try await playNative(conformanceCase.scenario)
            case .notification: return try await playNotification(conformanceCase.scenario)
            case .clientSecrets: return await judgeClientSecrets()
            case .authorizationRequest: return try await judgeAuthorizationRequest()
            case .deletion: return try await playDeletion()
            case .sessionAfterNotification: return try await playSessionAfterNotification(conformanceCase.scenario)
            case .audiences: return try await playAudiences(earlier: earlier)
            }
        } catch let failure as StepFailure {
            return failure.observation
        } catch let problem as StartProblem {
            return .inconclusive("the sign-in could not start: \(problem.reason)")
        } catch {
            return .error("the kit could not build the case's input")
        }
    }

    // MARK: Web

    /// Starts a web sign-in in a fresh browser: `GET --start` (with `--start-method POST`, then submits
    /// the page's form), follows same-origin redirects, and requires the last one to go to the kit's
    /// `/auth/authorize` with state, redirect_uri, client_id and form_post.
    func startWeb() async throws -> WebStart {
        var jar = CookieJar(backend: URL(string: options.backend))
        guard let startPath = options.startPath else { throw StartProblem(reason: Self.noWebStart) }
        var url = options.backend + startPath
        var answer = try await startRequest(url) { try await client.get(url, cookies: jar.header(path: Self.path(url), .sameSite)) }
        jar.take(answer.setCookies, requestPath: Self.path(url))
        if options.startMethod == .post {
            guard (200..<300).contains(answer.status), let form = StartForm.parse(answer.body) else {
                throw StartProblem(
                    reason:
                        "GET \(url) answered HTTP \(answer.status) without a <form method=\"post\">: --start-method POST needs the page with the sign-in form"
                )
            }
            guard let action = resolve(form.action.isEmpty ? url : form.action, from: url) else {
                throw StartProblem(reason: "the start page's form posts to \(form.action.prefix(200)), not to the backend's own origin")
            }
            answer = try await startRequest(action) {
                try await client.postForm(action, form.fields, cookies: jar.header(path: Self.path(action), .sameSite), origin: options.backendOrigin)
            }
            jar.take(answer.setCookies, requestPath: Self.path(action))
            url = action
        }
        for _ in 0..<Self.maximumRedirects {
            guard (300..<400).contains(answer.status), let location = answer.location, let next = resolve(location, from: url) else { break }
            answer = try await startRequest(next) { try await client.get(next, cookies: jar.header(path: Self.path(next), .sameSite)) }
            jar.take(answer.setCookies, requestPath: Self.path(next))
            url = next
        }
        guard (300..<400).contains(answer.status), let location = answer.location else {
            throw StartProblem(reason: "\(url) answered HTTP \(answer.status), not a redirect to \(options.appleBaseURL)/auth/authorize")
        }
        guard let components = URLComponents(string: location), let host = components.host, ["127.0.0.1", "localhost"].contains(host.lowercased()),
            components.port == options.port, components.path == "/auth/authorize"
        else {
            throw StartProblem(
                reason: "\(url) redirects to \(location.prefix(200)), not to the kit's \(options.appleBaseURL)/auth/authorize: "
                    + "configure the backend to use \(options.appleBaseURL) as Apple's base URL")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        guard let state = query["state"], !state.isEmpty else { throw StartProblem(reason: "the authorization request carries no state") }
        guard query["redirect_uri"] == options.redirectURI else {
            throw StartProblem(
                reason: "the authorization request's redirect_uri is \(query["redirect_uri"] ?? "missing"), not \(options.redirectURI)")
        }
        guard query["client_id"] == options.clientID else {
            throw StartProblem(reason: "the authorization request's client_id is \(query["client_id"] ?? "missing"), not \(options.clientID)")
        }
        guard query["response_mode"] == "form_post" else {
            throw StartProblem(reason: "the authorization request's response_mode is \(query["response_mode"] ?? "missing"), not form_post")
        }
        return WebStart(state: state, nonce: query["nonce"].flatMap { $0.isEmpty ? nil : $0 }, cookies: jar)
    }

    private func startRequest(_ url: String, _ send: () async throws -> BackendClient.Answer) async throws -> BackendClient.Answer {
        do {
            return try await send()
        } catch let failure as BackendClient.Failure {
            throw StartProblem(reason: Observation.failure(failure, what: url).detail)
        }
    }

    private func playWeb(_ scenario: Scenario, earlier: [String: ConformanceReport.CaseResult]) async throws -> Observation {
        if scenario.defect == .codeHashMismatch, earlier[ConformanceCatalog.formPostChannel]?.observed == "accepted" {
            return .skipped(
                "c_hash binds the form_post id_token to its code, and this backend does not check the form_post id_token "
                    + "(see \(ConformanceCatalog.formPostChannel)); it verifies the token endpoint's, which carries no c_hash")
        }
        var start = try await startWeb()
        if [.nonceMismatch, .nonceMissing].contains(scenario.defect), start.nonce == nil {
            return .skipped("the authorization request carries no nonce (see authorization-request-nonce): there is nothing to compare")
        }
        if scenario.state == .replayed {
            // The same browser, as it was before the first sign-in, posts the consumed state again.
            let before = start.cookies
            let first = try await deliver(&start, formPost(start, scenario: Scenario(), person: person(.returningUser))).observation
            guard first.isAccepted else {
                return .inconclusive("the sign-in that consumes the state was not accepted (\(first.word): \(first.detail))")
            }
            var replay = WebStart(state: start.state, nonce: start.nonce, cookies: before)
            return try await deliver(&replay, formPost(replay, scenario: scenario, person: person(.returningUser))).observation
        }
        if scenario.rotateKeys { try await rotateKeys() }
        let signer = person(scenario.person)
        let delivery = try await deliver(&start, formPost(start, scenario: scenario, person: signer))
        guard case .userEmailDiffers = scenario.person else { return delivery.observation }
        return judgeEmail(delivery, person: signer)
    }

    /// Leaves the backend's key cache alone for ``ConformanceOptions/keyRefetchInterval`` after its last fetch, then rotates.
    private func rotateKeys() async throws {
        if let last = await authority.lastKeyFetch {
            let wait = last.advanced(by: options.keyRefetchInterval) - .now
            if wait > .zero { try await Task.sleep(for: min(wait, options.keyRefetchInterval)) }
        }
        try await authority.rotateKeys()
    }

    /// Who signs in: the token's subject and email, and the `user` field's JSON (its email may differ).
    struct Person {
        let subject: String
        let email: String
        let user: String?
        var userEmail: String? = nil
    }

    func person(_ person: Scenario.Person) -> Person {
        switch person {
        case .newUser:
            return Person(subject: mainSubject, email: mainEmail, user: Self.userJSON(email: mainEmail))
        case .returningUser:
            return Person(subject: mainSubject, email: mainEmail, user: nil)
        case .privateEmailUser(let domain):
            let email = "\(RandomText.hex32().prefix(10))@\(domain)"
            return Person(subject: RandomText.subject(), email: email, user: Self.userJSON(email: email))
        case .userEmailDiffers:
            let email = "grace.\(RandomText.hex32().prefix(8))@example.com"
            let other = "mallory.\(RandomText.hex32().prefix(8))@example.net"
            return Person(subject: RandomText.subject(), email: email, user: Self.userJSON(email: other), userEmail: other)
        }
    }

    /// The form_post fields; the code, redeemed, yields the token endpoint's id_token with the same claims.
    func formPost(_ start: WebStart, scenario: Scenario, person: Person) async throws -> [(String, String)] {
        let isPrivate = ["@privaterelay.appleid.com", "@private.icloud.com"].contains { person.email.hasSuffix($0) }
        var content = TokenMint.IdentityContent(
            subject: person.subject, audience: options.clientID, nonce: start.nonce, email: person.email, isPrivateEmail: isPrivate,
            booleans: scenario.booleans)
        let code = await authority.issueCode(
            clientID: options.clientID, redirectURI: options.redirectURI, content: content,
            defect: scenario.channels == .formPostOnly ? .none : scenario.defect, refused: scenario.codeRefusedByApple)
        content.code = code
        let token = try await TokenMint(issuer: options.effectiveIssuer, now: Date()).identityToken(
            content, defect: scenario.channels == .tokenEndpointOnly ? .none : scenario.defect, keys: authority.keys)
        var fields = [("state", scenario.state == .neverIssued ? RandomText.token() : start.state), ("code", code), ("id_token", token)]
        if let user = person.user { fields.append(("user", user)) }
        return fields
    }

    /// Apple's cross-site form_post to the redirect URI; the same-origin redirects a browser follows
    /// (top-level GETs started cross-site: Lax cookies, no Strict ones); then the probe, same-site.
    func deliver(_ start: inout WebStart, _ fields: [(String, String)]) async throws -> Delivery {
        var url = options.redirectURI
        var answer: BackendClient.Answer
        do {
            answer = try await client.postForm(url, fields, cookies: start.cookies.header(path: Self.path(url), .crossSitePost))
        } catch {
            return Delivery(observation: .failure(error, what: "the callback"))
        }
        start.cookies.take(answer.setCookies, requestPath: Self.path(url))
        var statuses = [answer.status]
        for _ in 0..<Self.maximumRedirects {
            guard (300..<400).contains(answer.status), let location = answer.location, let next = resolve(location, from: url) else { break }
            do {
                answer = try await client.get(next, cookies: start.cookies.header(path: Self.path(next), .crossSiteNavigation))
            } catch {
                return Delivery(observation: .failure(error, what: Self.path(next)))
            }
            start.cookies.take(answer.setCookies, requestPath: Self.path(next))
            statuses.append(answer.status)
            url = next
        }
        let chain = "the callback answered HTTP " + statuses.map(String.init).joined(separator: " → ")
        if statuses.contains(where: { $0 >= 500 }) { return Delivery(observation: .error(chain)) }
        guard let probePath = options.probePath else {
            switch answer.status {
            case 200..<400: return Delivery(observation: .accepted(chain))
            case 400..<500: return Delivery(observation: .refused(start.cookies.explaining(chain)))
            default: return Delivery(observation: .error(chain))
            }
        }
        do {
            let probe = try await client.get(options.backend + probePath, cookies: start.cookies.header(path: probePath, .sameSite))
            switch probe.status {
            case 200..<300: return Delivery(observation: .accepted("\(chain), \(probePath) HTTP \(probe.status)"), probeBody: probe.body)
            case 500...: return Delivery(observation: .error("\(chain), then \(probePath) HTTP \(probe.status)"))
            default:
                return Delivery(observation: .refused(start.cookies.explaining("\(chain), but \(probePath) HTTP \(probe.status): not signed in")))
            }
        } catch {
            return Delivery(observation: .failure(error, what: probePath))
        }
    }

    /// Which email the backend kept when `user` named another than the token: the probe must show it.
    private func judgeEmail(_ delivery: Delivery, person: Person) -> Observation {
        guard delivery.observation.isAccepted else { return delivery.observation }
        guard options.probePath != nil, let body = delivery.probeBody, let forged = person.userEmail else {
            return .skipped("needs a --probe whose answer shows the signed-in email")
        }
        if body.contains(forged) {
            return .violation("the backend kept the unsigned `user` email \(forged), not the token's \(person.email)")
        }
        if body.contains(person.email) { return .accepted("the backend kept the token's email") }
        return .inconclusive("the probe's answer shows neither email: give a --probe whose answer shows the signed-in email")
    }

    /// `location` resolved against `base`, if it stays on the backend's origin.
    func resolve(_ location: String, from base: String) -> String? {
        guard let url = URL(string: location, relativeTo: URL(string: base))?.absoluteURL,
            ConformanceOptions.origin(of: url.absoluteString) == options.backendOrigin
        else { return nil }
        return url.absoluteString
    }

    /// The path of `url` (for cookie paths), `/` when it has none.
    static func path(_ url: String) -> String {
        let path = URLComponents(string: url)?.path ?? ""
        return path.isEmpty ? "/" : path
    }

    static func userJSON(email: String) -> String {
        #"{"name":{"firstName":"Ada","lastName":"Lovelace"},"email":"\#(email)"}"#
    }

    /// `authorization-request-nonce`: whether the start's authorization request carries a nonce.
    private func judgeAuthorizationRequest() async throws -> Observation {
        let start = try await startWeb()
        guard start.nonce != nil else {
            return .violation("the authorization request carries no nonce: an identity token cannot be bound to the sign-in that asked for it")
        }
        return .accepted("the authorization request carries a nonce")
    }
}
