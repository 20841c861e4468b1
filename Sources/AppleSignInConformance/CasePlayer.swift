import AppleIDEmulator
import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
    let apple: AppleStage
    let client: BackendClient

    /// Plays one case; `earlier` holds the verdicts so far (the channel cases decide whether `c_hash` applies).
    func play(_ conformanceCase: ConformanceCase, earlier: [String: ConformanceReport.CaseResult]) async -> Observation {
        if options.startPath == nil, Self.webStartFlows.contains(conformanceCase.flow) {
            return .skipped(Self.noWebStart)
        }
        // Apple's failures and forgeries last as long as the case.
        defer { apple.endCase() }
        let plan = conformanceCase.plan
        do {
            switch conformanceCase.flow {
            case .web: return try await playWeb(plan, earlier: earlier)
            case .native: return try await playNative(plan, earlier: earlier)
            case .notification: return try await playNotification(plan)
            case .clientSecrets: return judgeClientSecrets()
            case .authorizationRequest: return try await judgeAuthorizationRequest()
            case .deletion: return try await playDeletion()
            case .sessionAfterNotification: return try await playSessionAfterNotification(plan)
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

    private func playWeb(_ plan: SignInPlan, earlier: [String: ConformanceReport.CaseResult]) async throws -> Observation {
        if plan.needsFormPostCheck, earlier[ConformanceCatalog.formPostChannel]?.observed == "accepted" {
            return .skipped(
                "c_hash binds the form_post id_token to its code, and this backend does not check the form_post id_token "
                    + "(see \(ConformanceCatalog.formPostChannel)); it verifies the token endpoint's, which carries no c_hash")
        }
        if plan.state == .replayed {
            // The same browser, as it was before the first sign-in, posts the consumed state again.
            var start = try await startWeb()
            let before = start.cookies
            let first = try await deliver(&start, formPost(start, plan: SignInPlan()).fields).observation
            guard first.isAccepted else {
                return .inconclusive("the sign-in that consumes the state was not accepted (\(first.word): \(first.detail))")
            }
            var replay = WebStart(state: start.state, nonce: start.nonce, cookies: before)
            return try await deliver(&replay, formPost(replay, plan: plan).fields).observation
        }
        if plan.warmUp {
            var start = try await startWeb()
            let warmUp = try await deliver(&start, formPost(start, plan: SignInPlan()).fields).observation
            guard warmUp.isAccepted else {
                return .inconclusive("the sign-in with Apple as usual was not accepted (\(warmUp.detail)): nothing to compare")
            }
        }
        if plan.rotatesKeys {
            // When no web sign-in works at all, one sign-in with the new key says as much as a minute of them.
            return try await playKeyRotation(retrying: earlier[ConformanceCatalog.webBaseline]?.verdict == .passed) {
                var start = try await startWeb()
                return try await deliver(&start, formPost(start, plan: plan).fields).observation
            }
        }
        // Apple's failures are in force from the start: a backend may read discovery or keys when the sign-in starts.
        let mark = apple.lastRequestID()
        apple.put(plan.failures, clientID: options.clientID)
        var start = try await startWeb()
        if plan.needsNonce, start.nonce == nil {
            return .skipped("the authorization request carries no nonce (see authorization-request-nonce): there is nothing to compare")
        }
        let posted = try await formPost(start, plan: plan)
        let stalls = plan.stalls
        let delivery = try await deliver(
            &start, posted.fields, appleDown: plan.appleFails,
            client: stalls ? client.waiting(options.appleStallBound) : nil)
        if stalls, case .timeout = delivery.observation {
            return .timeout("the callback did not answer within \(options.appleStallBound) while Apple stalled")
        }
        if plan.has(.issuerDrift) { return judgeDrift(delivery.observation, after: mark) }
        guard case .userFieldNamesOtherEmail = plan.person else { return delivery.observation }
        return judgeEmail(delivery, signedIn: posted)
    }

    /// What a form_post carries: its fields, and who signed in (the token's email, and the `user` field's when it differs).
    struct FormPost {
        let fields: [(String, String)]
        let email: String?
        var userEmail: String?
    }

    /// Apple completes a sign-in of the plan's person for the web client; the form_post fields, forged as the plan says.
    func formPost(_ start: WebStart, plan: SignInPlan) async throws -> FormPost {
        let staged = try await stage(plan, clientID: options.clientID, redirectURI: options.redirectURI, nonce: start.nonce, device: false)
        var user = staged.signIn.user
        var userEmail: String? = nil
        if case .userFieldNamesOtherEmail = plan.person {
            let other = "mallory.\(RandomText.hex32().prefix(8))@example.net"
            user = Self.userJSON(email: other)
            userEmail = other
        }
        // An Apple ID that shares no email (omit_email) has none in `user` either: only its name.
        if plan.has(.omitEmail), user != nil { user = #"{"name":{"firstName":"\#(AppleStage.name.first)","lastName":"\#(AppleStage.name.last)"}}"# }
        var fields = [
            ("state", plan.state == .neverIssued ? RandomText.token() : start.state), ("code", staged.signIn.code), ("id_token", staged.token),
        ]
        if let user { fields.append(("user", user)) }
        return FormPost(fields: fields, email: staged.signIn.email, userEmail: userEmail)
    }

    /// A sign-in Apple staged for a case: what Apple returned, the token as the case delivers it, and whose Apple ID it is.
    struct StagedCase {
        let signIn: StagedSignIn
        let token: String
        let appleID: String
    }

    /// Apple (the engine) completes a sign-in of `plan`'s person to `clientID`; the delivered token forged
    /// as the plan says, and the token endpoint's forged while the case plays.
    func stage(_ plan: SignInPlan, clientID: String, redirectURI: String?, nonce: String?, device: Bool) async throws -> StagedCase {
        let appleID: String
        var hideEmail = false
        switch plan.person {
        case .newUser, .returningUser: appleID = device ? apple.nativeAppleID : apple.mainAppleID
        case .freshUser, .userFieldNamesOtherEmail: appleID = try await apple.freshAppleID()
        case .hiddenEmail:
            appleID = try await apple.freshAppleID()
            hideEmail = true
        }
        let signIn = try await apple.engine.signIn(
            appleID: appleID, clientID: clientID, redirectURI: redirectURI, nonce: nonce, hideEmail: hideEmail, device: device)
        apple.engine.forgeTokens(clientID: clientID, with: plan.tokenEndpoint)
        var token = signIn.idToken
        if let forgery = plan.delivered { token = try await apple.engine.forge(signIn.idToken, with: forgery) }
        return StagedCase(signIn: signIn, token: token, appleID: appleID)
    }

    /// Issuer drift: a backend that refuses a legitimate sign-in because discovery drifted fails; one that
    /// signs in passes only when it never read discovery (its issuer is configured) or read it while drifted.
    func judgeDrift(_ observation: Observation, after mark: Int) -> Observation {
        let drifted = IssuerDrift.driftedIssuer
        let readEver = !apple.requests(to: Self.discoveryPath).isEmpty
        // With --drifted-discovery, discovery was drifted for the whole run: every read was a drifted one.
        let readDuring = !apple.requests(to: Self.discoveryPath, after: mark).isEmpty || (options.driftedDiscovery && readEver)
        switch (observation.isAccepted, readDuring, readEver) {
        case (true, true, _):
            return observation.appending("; the backend read discovery (issuer \(drifted)) during the drift and still signed in")
        case (true, false, false):
            return observation.appending("; the backend never read discovery: its issuer is configured, which drift cannot break")
        case (true, false, true):
            return .inconclusive(
                "signed in, but the backend read discovery only before the drift (it may keep the issuer it read then): run the kit with "
                    + "--drifted-discovery and start the backend during the run to see what a drifted discovery does to it")
        case (false, _, _):
            return observation.appending(
                readDuring
                    ? "; the backend read discovery (issuer \(drifted)) during the drift" : "; the backend did not read discovery during the drift")
        }
    }

    static let discoveryPath = "/.well-known/openid-configuration"

    /// Apple's cross-site form_post to the redirect URI; the same-origin redirects a browser follows
    /// (top-level GETs started cross-site: Lax cookies, no Strict ones); then the probe, same-site.
    func deliver(
        _ start: inout WebStart, _ fields: [(String, String)], appleDown: Bool = false, client callbackClient: BackendClient? = nil
    ) async throws -> Delivery {
        var url = options.redirectURI
        var answer: BackendClient.Answer
        do {
            answer = try await (callbackClient ?? client).postForm(url, fields, cookies: start.cookies.header(path: Self.path(url), .crossSitePost))
        } catch {
            return Delivery(observation: .failure(error, what: "the callback"))
        }
        start.cookies.take(answer.setCookies, requestPath: Self.path(url))
        var statuses = [answer.status]
        for _ in 0..<Self.maximumRedirects {
            guard (300..<400).contains(answer.status), let location = answer.location, let next = resolve(location, from: url) else { break }
            do {
                // A backend may redeem the code on a redirect after the form_post (a same-site handoff): same bound.
                answer = try await (callbackClient ?? client).get(next, cookies: start.cookies.header(path: Self.path(next), .crossSiteNavigation))
            } catch {
                return Delivery(observation: .failure(error, what: Self.path(next)))
            }
            start.cookies.take(answer.setCookies, requestPath: Self.path(next))
            statuses.append(answer.status)
            url = next
        }
        let chain = "the callback answered HTTP " + statuses.map(String.init).joined(separator: " → ")
        if appleDown, let last = statuses.last, Self.gatewayErrors.contains(last), !statuses.contains(500) {
            return Delivery(observation: .refused(chain + ": Apple's outage, reported as a gateway error"))
        }
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

    /// While Apple is down, a 502, 503 or 504 is a clean refusal: the backend reports its upstream's outage
    /// as a gateway error, not a crash of its own.
    static let gatewayErrors: Set<Int> = [502, 503, 504]

    /// Which email the backend kept when `user` named another than the token: the probe must show it.
    private func judgeEmail(_ delivery: Delivery, signedIn: FormPost) -> Observation {
        guard delivery.observation.isAccepted else { return delivery.observation }
        guard options.probePath != nil, let body = delivery.probeBody, let forged = signedIn.userEmail, let email = signedIn.email else {
            return .skipped("needs a --probe whose answer shows the signed-in email")
        }
        if body.contains(forged) {
            return .violation("the backend kept the unsigned `user` email \(forged), not the token's \(email)")
        }
        if body.contains(email) { return .accepted("the backend kept the token's email") }
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
