import Foundation

/// The cases about a signed-in account: notifications, deletion, client secrets.
extension CasePlayer {
    func playNotification(_ scenario: Scenario) async throws -> Observation {
        guard let path = options.notificationsPath else { return .skipped("no --notifications endpoint") }
        return try await notify(
            path, type: scenario.notificationType, subject: mainSubject, defect: scenario.defect, eventsAsObject: scenario.eventsAsObject)
    }

    private func notify(
        _ path: String, type: String, subject: String, defect: Scenario.Defect, eventsAsObject: Bool = false
    ) async throws -> Observation {
        let payload = try await TokenMint(issuer: options.effectiveIssuer, now: Date()).notification(
            type: type, subject: subject, email: mainEmail, audience: options.appAudience, defect: defect, eventsAsObject: eventsAsObject,
            keys: authority.keys)
        let json = try JSONEncoder().encode(["payload": payload])
        do {
            return .api(try await client.postJSON(options.backend + path, json), what: path)
        } catch {
            return .failure(error, what: path)
        }
    }

    /// A fresh Apple ID signs in in a browser of its own; the case is inconclusive when that fails.
    private func signInFreshUser() async throws -> (start: WebStart, subject: String) {
        var start = try await startWeb()
        let signer = person(.privateEmailUser(domain: "privaterelay.appleid.com"))
        let signedIn = try await deliver(&start, formPost(start, scenario: Scenario(), person: signer)).observation
        guard signedIn.isAccepted else {
            throw StepFailure(observation: .inconclusive("the sign-in before it was not accepted (\(signedIn.word): \(signedIn.detail))"))
        }
        return (start, signer.subject)
    }

    /// `consent-revoked` / `account-delete`: after the notification, the user's session must stop working.
    func playSessionAfterNotification(_ scenario: Scenario) async throws -> Observation {
        guard let path = options.notificationsPath else { return .skipped("no --notifications endpoint") }
        guard let probePath = options.probePath else { return .skipped("needs a --probe to see whether the session still works") }
        let (start, subject) = try await signInFreshUser()
        let notified = try await notify(path, type: scenario.notificationType, subject: subject, defect: .none)
        guard notified.isAccepted else {
            return .inconclusive("the \(scenario.notificationType) notification was not accepted (\(notified.word): \(notified.detail))")
        }
        do {
            let probe = try await client.get(options.backend + probePath, cookies: start.cookies.header(path: probePath, .sameSite))
            switch probe.status {
            case 200..<300: return .accepted("after the \(scenario.notificationType) notification, \(probePath) still answers HTTP \(probe.status)")
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
        let (start, subject) = try await signInFreshUser()
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
        while await !authority.revokedSubjects.contains(subject), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        guard await authority.revokedSubjects.contains(subject) else {
            return .violation("\(path) answered HTTP \(answer.status), but the backend never revoked the user's token at /auth/revoke")
        }
        return .accepted("\(path) answered HTTP \(answer.status) and the user's token was revoked at /auth/revoke")
    }

    func judgeClientSecrets() async -> Observation {
        let problems = await authority.secretProblems
        let valid = await authority.validSecrets
        if let problem = problems.first {
            return .refused("\(problems.count) client secret(s) refused: \(problem)")
        }
        guard valid > 0 else { return .inconclusive("the backend never called /auth/token") }
        return .accepted("\(valid) client secret(s) valid")
    }
}
