import AppleIDEmulator
import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The cases about a signed-in account: notifications, deletion, client secrets.
extension CasePlayer {
    func playNotification(_ plan: SignInPlan) async throws -> Observation {
        guard let path = options.notificationsPath else { return .skipped("no --notifications endpoint") }
        let subject = try await apple.engine.subject(appleID: apple.mainAppleID, clientID: options.clientID)
        if plan.warmUp {
            // First a notification with Apple as usual, so a backend that caches Apple's keys has them; then
            // the failures come into force and a second notification is judged.
            let warmUp = try await notify(path, type: plan.notificationType, subject: subject)
            guard warmUp.isAccepted else {
                return .inconclusive("the notification with Apple as usual was not accepted (\(warmUp.detail)): nothing to compare")
            }
        }
        let mark = apple.lastRequestID()
        apple.put(plan.failures, clientID: options.appAudience)
        let observation = try await notify(path, type: plan.notificationType, subject: subject, forgery: plan.notification)
        return plan.has(.issuerDrift) ? judgeDrift(observation, after: mark) : observation
    }

    private func notify(_ path: String, type: String, subject: String, forgery: TokenForgery? = nil) async throws -> Observation {
        let payload = try await apple.engine.notification(
            type: type, subject: subject, email: apple.mainAppleID, bundleID: options.appAudience, forgery: forgery)
        let json = try JSONEncoder().encode(["payload": payload])
        do {
            return .api(try await client.postJSON(options.backend + path, json), what: path)
        } catch {
            return .failure(error, what: path)
        }
    }

    /// A fresh Apple ID signs in in a browser of its own; the case is inconclusive when that fails.
    private func signInFreshUser() async throws -> (start: WebStart, subject: String, appleID: String) {
        var start = try await startWeb()
        let plan = SignInPlan([HiddenEmail(domain: .privateRelay)])
        apple.put(plan.failures, clientID: options.clientID)
        let staged = try await stage(plan, clientID: options.clientID, redirectURI: options.redirectURI, nonce: start.nonce, device: false)
        var fields = [("state", start.state), ("code", staged.signIn.code), ("id_token", staged.token)]
        if let user = staged.signIn.user { fields.append(("user", user)) }
        let signedIn = try await deliver(&start, fields).observation
        guard signedIn.isAccepted else {
            throw StepFailure(observation: .inconclusive("the sign-in before it was not accepted (\(signedIn.word): \(signedIn.detail))"))
        }
        return (start, staged.signIn.subject, staged.appleID)
    }

    /// `consent-revoked` / `account-delete`: after the notification, the user's session must stop working.
    func playSessionAfterNotification(_ plan: SignInPlan) async throws -> Observation {
        guard let path = options.notificationsPath else { return .skipped("no --notifications endpoint") }
        guard let probePath = options.probePath else { return .skipped("needs a --probe to see whether the session still works") }
        let (start, subject, _) = try await signInFreshUser()
        let notified = try await notify(path, type: plan.notificationType, subject: subject)
        guard notified.isAccepted else {
            return .inconclusive("the \(plan.notificationType) notification was not accepted (\(notified.word): \(notified.detail))")
        }
        do {
            let probe = try await client.get(options.backend + probePath, cookies: start.cookies.header(path: probePath, .sameSite))
            switch probe.status {
            case 200..<300: return .accepted("after the \(plan.notificationType) notification, \(probePath) still answers HTTP \(probe.status)")
            case 500...: return .error("after the notification, \(probePath) answered HTTP \(probe.status)")
            default: return .refused("after the notification, \(probePath) answers HTTP \(probe.status): the session ended")
            }
        } catch {
            return .failure(error, what: probePath)
        }
    }

    /// `--delete`: a signed-in user deletes the account; the backend must revoke the user's token at `/auth/revoke`.
    func playDeletion() async throws -> Observation {
        guard let path = options.deletePath else { return .skipped("no --delete endpoint") }
        let (start, _, appleID) = try await signInFreshUser()
        let answer: BackendClient.Answer
        do {
            answer = try await client.postForm(
                options.backend + path, [], cookies: start.cookies.header(path: path, .sameSite), origin: options.backendOrigin)
        } catch {
            return .failure(error, what: path)
        }
        if answer.status >= 500 { return .error("\(path) answered HTTP \(answer.status)") }
        // A backend may revoke from a queue: wait up to 5 s (at most the request timeout) for the call.
        let deadline = ContinuousClock.now + min(options.requestTimeout, .seconds(5))
        while try await !revoked(appleID), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        guard try await revoked(appleID) else {
            return .violation("\(path) answered HTTP \(answer.status), but the backend never revoked the user's token at /auth/revoke")
        }
        return .accepted("\(path) answered HTTP \(answer.status) and the user's token was revoked at /auth/revoke")
    }

    /// Whether the backend revoked a token of `appleID` at `/auth/revoke`.
    private func revoked(_ appleID: String) async throws -> Bool {
        try await apple.engine.hasRevokedToken(appleID: appleID, bundleID: options.appAudience)
    }

    /// `client-secret-lifetime`: judged from what Apple's token endpoint answered the backend's calls.
    func judgeClientSecrets() -> Observation {
        // invalid_client answered while a case staged it says nothing about the backend's secrets.
        let calls = apple.requests(to: "/auth/token").filter { !apple.staged.contains($0.id) }
        let refused = calls.filter { $0.error == "invalid_client" }
        if let first = refused.first {
            return .refused(
                "\(refused.count) client secret(s) refused by Apple's token endpoint (invalid_client: the secret's signature does not verify "
                    + "with the team key, or its iss, sub, aud or lifetime is wrong)\(Self.describe(first.clientSecret))")
        }
        guard calls.contains(where: { $0.clientSecret != nil }) else { return .inconclusive("the backend never called /auth/token") }
        return .accepted("\(calls.filter { $0.clientSecret != nil }.count) client secret(s) valid")
    }

    /// What the refused secret said: its alg, kid, iss, sub and lifetime (never its signature).
    private static func describe(_ secret: CapturedClientSecret?) -> String {
        guard case .object(let header) = secret?.header, case .object(let claims) = secret?.claims else { return "" }
        func text(_ value: JSONValue?) -> String {
            switch value {
            case .string(let text): String(text.prefix(64))
            case .integer(let number): String(number)
            default: "missing"
            }
        }
        var lifetime = "unknown"
        if case .integer(let issued) = claims["iat"], case .integer(let expiry) = claims["exp"] { lifetime = "\(expiry - issued) s" }
        return "; the first: alg \(text(header["alg"])), kid \(text(header["kid"])), iss \(text(claims["iss"])), sub \(text(claims["sub"])), "
            + "lifetime \(lifetime)"
    }
}
