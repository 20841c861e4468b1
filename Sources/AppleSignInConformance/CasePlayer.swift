import AppleIDEmulator
import Foundation
import JuiceEncodings

/// Plays the cases of one run against the backend, in order, keeping who has signed in so far.
struct CasePlayer {
    /// What a web sign-in's start left the browser with.
    struct WebStart {
        let state: String
        let nonce: String?
        var cookies = CookieJar()
    }

    /// Why a step before the judged request failed.
    struct StepFailure: Error {
        let observation: Observation
    }

    /// Why the start URL is unusable (exit status 2 when it happens before the first case).
    struct StartProblem: Error {
        let reason: String
    }

    let options: ConformanceOptions
    let authority: KitAuthority
    let client: BackendClient

    /// The run's main Apple ID (web sign-in, returning user, notifications).
    private let mainSubject = RandomText.subject()
    private let mainEmail = "ada.\(RandomText.hex32().prefix(8))@example.com"
    /// The native sign-in's Apple ID.
    private let nativeSubject = RandomText.subject()

    func play(_ conformanceCase: ConformanceCase) async -> Observation {
        do {
            switch conformanceCase.flow {
            case .web: return try await playWeb(conformanceCase.scenario)
            case .native: return try await playNative(conformanceCase.scenario)
            case .notification: return try await playNotification(conformanceCase.scenario)
            case .clientSecrets: return await judgeClientSecrets()
            }
        } catch let failure as StepFailure {
            return failure.observation
        } catch let problem as StartProblem {
            return .error(problem.reason)
        } catch {
            return .error("the kit could not build the case's input")
        }
    }

    // MARK: Web

    /// `GET --start`: must redirect to the kit's `/auth/authorize` with state, redirect_uri and form_post.
    func startWeb() async throws -> WebStart {
        let url = options.backend + options.startPath
        let answer: BackendClient.Answer
        do {
            answer = try await client.get(url)
        } catch {
            throw StartProblem(reason: Observation.failure(error, what: "GET \(url)").detail)
        }
        guard (300..<400).contains(answer.status), let location = answer.location else {
            throw StartProblem(reason: "GET \(url) answered HTTP \(answer.status), not a redirect to \(options.appleBaseURL)/auth/authorize")
        }
        guard let components = URLComponents(string: location), let host = components.host, ["127.0.0.1", "localhost"].contains(host.lowercased()),
            components.port == options.port, components.path == "/auth/authorize"
        else {
            throw StartProblem(
                reason: "GET \(url) redirects to \(location.prefix(200)), not to the kit's \(options.appleBaseURL)/auth/authorize: "
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
        var start = WebStart(state: state, nonce: query["nonce"].flatMap { $0.isEmpty ? nil : $0 })
        start.cookies.take(answer.setCookies)
        return start
    }

    private func playWeb(_ scenario: Scenario) async throws -> Observation {
        if scenario.state == .replayed {
            var start = try await startWeb()
            let first = try await deliver(&start, formPost(start, scenario: Scenario(), subject: mainSubject, email: mainEmail, user: nil))
            guard case .accepted = first else {
                return .error("the sign-in that consumes the state was not accepted (\(first.word): \(first.detail))")
            }
            return try await deliver(&start, formPost(start, scenario: scenario, subject: mainSubject, email: mainEmail, user: nil))
        }
        var start = try await startWeb()
        if scenario.rotateKeys { try await rotateKeys() }
        let (subject, email, user) = person(scenario.person)
        return try await deliver(&start, formPost(start, scenario: scenario, subject: subject, email: email, user: user))
    }

    /// Leaves the backend's key cache alone for ``ConformanceOptions/keyRefetchInterval`` after its last fetch, then rotates.
    private func rotateKeys() async throws {
        if let last = await authority.lastKeyFetch {
            let wait = last.advanced(by: options.keyRefetchInterval) - .now
            if wait > .zero { try await Task.sleep(for: min(wait, options.keyRefetchInterval)) }
        }
        try await authority.rotateKeys()
    }

    private func person(_ person: Scenario.Person) -> (subject: String, email: String, user: String?) {
        switch person {
        case .newUser:
            return (mainSubject, mainEmail, Self.userJSON(email: mainEmail))
        case .returningUser:
            return (mainSubject, mainEmail, nil)
        case .privateEmailUser:
            let email = "\(RandomText.hex32().prefix(10))@privaterelay.appleid.com"
            return (RandomText.subject(), email, Self.userJSON(email: email))
        }
    }

    private func formPost(_ start: WebStart, scenario: Scenario, subject: String, email: String, user: String?) async throws -> [(String, String)] {
        let code = await authority.issueCode(
            clientID: options.clientID, redirectURI: options.redirectURI, subject: subject, nonce: start.nonce, refused: scenario.codeRefusedByApple)
        let content = TokenMint.IdentityContent(
            subject: subject, audience: options.clientID, nonce: start.nonce, code: code, email: email,
            isPrivateEmail: email.hasSuffix("@privaterelay.appleid.com"), booleans: scenario.booleans)
        let token = try await TokenMint(issuer: options.effectiveIssuer, now: Date()).identityToken(
            content, defect: scenario.defect, keys: authority.keys)
        var fields = [("state", scenario.state == .neverIssued ? RandomText.token() : start.state), ("code", code), ("id_token", token)]
        if let user { fields.append(("user", user)) }
        return fields
    }

    /// Apple's cross-site form_post to the redirect URI, then the probe with what the callback set.
    private func deliver(_ start: inout WebStart, _ fields: [(String, String)]) async throws -> Observation {
        var answer: BackendClient.Answer
        do {
            answer = try await client.postForm(options.redirectURI, fields, cookies: start.cookies.header(crossSite: true))
        } catch {
            return .failure(error, what: "the callback")
        }
        start.cookies.take(answer.setCookies)
        // A browser follows a redirect to the backend's own origin as a top-level GET, which carries
        // its Lax cookies: a backend may finish there, where it can check the browser that started.
        for _ in 0..<3 {
            guard (300..<400).contains(answer.status), let location = answer.location, location.hasPrefix("/") else { break }
            do {
                answer = try await client.get(options.backend + location, cookies: start.cookies.header(crossSite: false))
            } catch {
                return .failure(error, what: location)
            }
            start.cookies.take(answer.setCookies)
        }
        switch answer.status {
        case 500...: return .error("the callback answered HTTP \(answer.status)")
        case 400..<500: return .refused("the callback answered HTTP \(answer.status)")
        case 200..<400: break
        default: return .error("the callback answered HTTP \(answer.status)")
        }
        guard let probePath = options.probePath else { return .accepted("the callback answered HTTP \(answer.status)") }
        do {
            let probe = try await client.get(options.backend + probePath, cookies: start.cookies.header(crossSite: false))
            switch probe.status {
            case 200..<300: return .accepted("the callback answered HTTP \(answer.status), \(probePath) HTTP \(probe.status)")
            case 500...: return .error("the callback answered HTTP \(answer.status), then \(probePath) HTTP \(probe.status)")
            default: return .refused("the callback answered HTTP \(answer.status), but \(probePath) HTTP \(probe.status): not signed in")
            }
        } catch {
            return .failure(error, what: probePath)
        }
    }

    static func userJSON(email: String) -> String {
        #"{"name":{"firstName":"Ada","lastName":"Lovelace"},"email":"\#(email)"}"#
    }

    // MARK: Native

    private func playNative(_ scenario: Scenario) async throws -> Observation {
        guard let nativePath = options.nativePath else { return .error("no --native endpoint") }
        let rawNonce = try await nativeNonce()
        let email = mainEmail.replacingOccurrences(of: "ada.", with: "ada.native.")
        let code = await authority.issueCode(
            clientID: options.appAudience, redirectURI: nil, subject: nativeSubject, nonce: nil, refused: scenario.codeRefusedByApple)
        let content = TokenMint.IdentityContent(
            subject: nativeSubject, audience: options.appAudience, nonce: sha256Hex(rawNonce), code: code, email: email)
        let token = try await TokenMint(issuer: options.effectiveIssuer, now: Date()).identityToken(
            content, defect: scenario.defect, keys: authority.keys)
        var body: [String: ClaimValue] = [
            "identityToken": .string(token), "authorizationCode": .string(code), "nonce": .string(rawNonce),
        ]
        if scenario.person == .newUser {
            body["user"] = .object([
                "name": .object(["firstName": .string("Ada"), "lastName": .string("Lovelace")]), "email": .string(email),
            ])
            body["fullName"] = .object(["givenName": .string("Ada"), "familyName": .string("Lovelace")])
            body["email"] = .string(email)
        }
        let json = try JSONEncoder().encode(body)
        do {
            return .api(try await client.postJSON(options.backend + nativePath, json), what: nativePath)
        } catch {
            return .failure(error, what: nativePath)
        }
    }

    /// The raw nonce: the backend's own (`--native-nonce`) or a fresh one.
    private func nativeNonce() async throws -> String {
        guard let path = options.nativeNoncePath else { return RandomText.token() }
        let answer: BackendClient.Answer
        do {
            answer = try await client.postJSON(options.backend + path, Data("{}".utf8))
        } catch {
            throw StepFailure(observation: .failure(error, what: path))
        }
        struct NonceBody: Decodable { let nonce: String }
        guard (200..<300).contains(answer.status), let nonce = try? JSONDecoder().decode(NonceBody.self, from: Data(answer.body.utf8)).nonce,
            !nonce.isEmpty
        else {
            throw StepFailure(observation: .error("\(path) answered HTTP \(answer.status) without a {\"nonce\"}"))
        }
        return nonce
    }

    // MARK: Notifications

    private func playNotification(_ scenario: Scenario) async throws -> Observation {
        guard let path = options.notificationsPath else { return .error("no --notifications endpoint") }
        let payload = try await TokenMint(issuer: options.effectiveIssuer, now: Date()).notification(
            subject: mainSubject, email: mainEmail, audience: options.appAudience, defect: scenario.defect, keys: authority.keys)
        let json = try JSONEncoder().encode(["payload": payload])
        do {
            return .api(try await client.postJSON(options.backend + path, json), what: path)
        } catch {
            return .failure(error, what: path)
        }
    }

    // MARK: Client secrets

    private func judgeClientSecrets() async -> Observation {
        let problems = await authority.secretProblems
        let valid = await authority.validSecrets
        if let problem = problems.first {
            return .refused("\(problems.count) client secret(s) refused: \(problem)")
        }
        guard valid > 0 else { return .error("the backend never called /auth/token") }
        return .accepted("\(valid) client secret(s) valid")
    }
}
