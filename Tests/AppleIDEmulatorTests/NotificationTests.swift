import AppleSignIn
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Logging
import NIOHTTP1
import Testing

@testable import AppleIDEmulator

@Suite("Server-to-server notifications")
struct NotificationTests {
    static func notifications(_ emulator: RunningEmulator) async throws -> [[String: Any]] {
        let result = try await emulator.http.get("/emulator/admin/notifications", headers: [("Authorization", "Bearer \(Fixture.adminToken)")])
        return result.json?["notifications"] as? [[String: Any]] ?? []
    }

    @Test("consent-revoked is signed with the current key, retried with backoff after the receiver fails twice, then delivered")
    func retryAfterTwoFailures() async throws {
        try await NotificationReceiver.with(failFirst: 2) { receiver, url in
            let clock = TestClock()
            try await OutboxPolls.observing { polls in
                try await RunningEmulator.with(configuration: Fixture.configuration(notificationURL: url), clock: clock) { emulator in
                    let page = try await WebFlow.signIn(emulator)
                    let subject = try await emulator.verifier().verify(WebFlow.hiddenInputs(page.body)["id_token"]!).subject

                    let revoked = try await emulator.admin.postJSON(
                        "/emulator/admin/revoke-consent", ["apple_id": Fixture.alice.email, "client_id": Fixture.servicesID])
                    #expect(revoked.status == 200)
                    try await eventually("first attempt") { await receiver.count == 1 }
                    try await eventually("first attempt recorded") { try await Self.notifications(emulator).first?["attempts"] as? Int == 1 }
                    // Not retried before the backoff has passed: polls at this time start nothing.
                    var mark = polls.count
                    try await eventually("polls with nothing due") { polls.quiet(since: mark) }
                    #expect(await receiver.count == 1)
                    clock.advance(by: 2)
                    try await eventually("second attempt") { await receiver.count == 2 }
                    try await eventually("second attempt recorded") { try await Self.notifications(emulator).first?["attempts"] as? Int == 2 }
                    clock.advance(by: 3)
                    mark = polls.count
                    try await eventually("polls with nothing due") { polls.quiet(since: mark) }
                    #expect(await receiver.count == 2)  // the second backoff is 4 s
                    clock.advance(by: 1)
                    try await eventually("third attempt") { await receiver.count == 3 }
                    try await eventually("delivered") { try await Self.notifications(emulator).first?["status"] as? String == "delivered" }
                    let entry = try #require(try await Self.notifications(emulator).first)
                    #expect(entry["attempts"] as? Int == 3)
                    #expect(entry["type"] as? String == "consent-revoked")
                    #expect(
                        entry["created_at"] is Int && entry["delivered_at"] is Int && entry["failed_at"] == nil, "times in Unix seconds: \(entry)")

                    let body = await receiver.bodies[2]
                    let notifications = ServerNotificationVerifier(
                        keys: emulator.keySet(), issuer: emulator.issuer, audiences: [Fixture.bundleID], time: clock.timeSource
                    )
                    let notification = try await notifications.verify(body: body)
                    #expect(notification.type == .consentRevoked)
                    #expect(notification.subject == subject)
                    #expect(notification.id == entry["jti"] as? String)
                    let payload = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: String])["payload"]
                    let claims = WebFlow.claims(try #require(payload))
                    #expect(claims["events"] is String)
                    #expect(claims["aud"] as? String == Fixture.bundleID)
                    let activeKeyID = try #require(WebFlow.header(WebFlow.hiddenInputs(page.body)["id_token"]!)["kid"] as? String)
                    #expect(WebFlow.header(payload!)["kid"] as? String == activeKeyID)

                    // The user must authorize again, as a first authorization.
                    let again = try await WebFlow.signIn(emulator)
                    #expect(WebFlow.hiddenInputs(again.body)["user"] != nil)
                }
            }
        }
    }

    @Test("Email forwarding and account deletion notify each app with the relay address or the sub")
    func emailAndDeletion() async throws {
        try await NotificationReceiver.with { receiver, url in
            try await RunningEmulator.with(configuration: Fixture.configuration(notificationURL: url)) { emulator in
                let page = try await WebFlow.signIn(emulator, emailChoice: "hide")
                let token = try await emulator.verifier().verify(WebFlow.hiddenInputs(page.body)["id_token"]!)
                let relay = try #require(token.email)
                let verifier = ServerNotificationVerifier(
                    keys: emulator.keySet(), issuer: emulator.issuer, audiences: [Fixture.bundleID], time: emulator.clock.timeSource
                )

                #expect(
                    try await emulator.admin.postJSON(
                        "/emulator/admin/set-email-forwarding", ["apple_id": Fixture.alice.email, "team_id": Fixture.teamA.teamID, "enabled": false]
                    ).status == 200)
                try await eventually("email-disabled") { await receiver.count == 1 }
                let disabled = try await verifier.verify(body: await receiver.bodies[0])
                #expect(disabled.type == .emailDisabled)
                #expect(disabled.email == relay)
                #expect(disabled.isPrivateEmail == true)
                #expect(disabled.subject == token.subject)

                #expect(
                    try await emulator.admin.postJSON(
                        "/emulator/admin/set-email-forwarding", ["apple_id": Fixture.alice.email, "team_id": Fixture.teamA.teamID, "enabled": true]
                    ).status == 200)
                try await eventually("email-enabled") { await receiver.count == 2 }
                #expect(try await verifier.verify(body: await receiver.bodies[1]).type == .emailEnabled)

                #expect(try await emulator.admin.postJSON("/emulator/admin/delete-apple-id", ["apple_id": Fixture.alice.email]).status == 200)
                try await eventually("account-delete") { await receiver.count == 3 }
                let deleted = try await verifier.verify(body: await receiver.bodies[2])
                #expect(deleted.type == .accountDeleted)
                #expect(deleted.subject == token.subject)
                #expect(try await WebFlow.signIn(emulator).status == 401)
                #expect(try await emulator.admin.postJSON("/emulator/admin/delete-apple-id", ["apple_id": Fixture.alice.email]).status == 404)
            }
        }
    }

    @Test("Admin endpoints need the admin token and validate their bodies")
    func adminAuth() async throws {
        try await RunningEmulator.with { emulator in
            #expect(try await emulator.http.postJSON("/emulator/admin/rotate-keys", [:]).status == 401)
            let wrong = try await emulator.http.send(
                .POST, "/emulator/admin/rotate-keys", headers: [("Authorization", "Bearer nope")], body: nil
            )
            #expect(wrong.status == 401)
            #expect(try await emulator.admin.postJSON("/emulator/admin/revoke-consent", ["apple_id": 1]).error == "invalid_request")
            #expect(
                try await emulator.admin.postJSON(
                    "/emulator/admin/revoke-consent", ["apple_id": Fixture.alice.email, "client_id": Fixture.servicesID]
                )
                .status == 404)
            #expect(
                try await emulator.admin.postJSON("/emulator/admin/transfer-app", ["bundle_id": "com.nope", "to_team_id": Fixture.teamB.teamID])
                    .status
                    == 404)
        }
    }
}

@Suite("Outbox bounds and log hygiene")
struct OutboxBoundsTests {
    @Test("A receiver that always fails is given up after the maximum number of attempts")
    func givesUp() async throws {
        try await NotificationReceiver.with(failFirst: 1000) { receiver, url in
            let clock = TestClock()
            let options = EmulatorOptions(
                outboxPollInterval: .milliseconds(20), outboxInitialBackoff: 1, outboxMaximumBackoff: 2, outboxMaximumAttempts: 3)
            try await OutboxPolls.observing { polls in
                try await RunningEmulator.with(configuration: Fixture.configuration(notificationURL: url), clock: clock, options: options) {
                    emulator in
                    _ = try await WebFlow.signIn(emulator)
                    _ = try await emulator.admin.postJSON(
                        "/emulator/admin/revoke-consent", ["apple_id": Fixture.alice.email, "client_id": Fixture.servicesID])
                    for attempt in 1...3 {
                        try await eventually("attempt \(attempt) recorded") {
                            try await NotificationTests.notifications(emulator).first?["attempts"] as? Int == attempt
                        }
                        clock.advance(by: 2)
                    }
                    try await eventually("given up") { try await NotificationTests.notifications(emulator).first?["status"] as? String == "failed" }
                    clock.advance(by: 3600)
                    let mark = polls.count
                    try await eventually("polls with nothing due") { polls.quiet(since: mark) }
                    #expect(await receiver.count == 3)
                }
            }
        }
    }

    @Test("Passwords, client secrets, codes and tokens never reach the logs, even at trace level")
    func noSecretsInLogs() async throws {
        let logs = LogCapture()
        try await RunningEmulator.with(logger: logs.logger(level: .trace)) { emulator in
            let page = try await WebFlow.signIn(emulator)
            let code = WebFlow.hiddenInputs(page.body)["code"]!
            let secret = try await emulator.secret(clientID: Fixture.servicesID)
            let exchange = try await TokenEndpointTests.exchange(emulator, code: code, secret: secret)
            let refreshToken = try #require(exchange.json?["refresh_token"] as? String)
            _ = try await TokenEndpointTests.exchange(emulator, code: code, secret: secret)
            _ = try await emulator.http.postForm(
                "/auth/token",
                [("client_id", Fixture.servicesID), ("client_secret", "a.b.c"), ("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
            _ = try await emulator.http.postForm(
                "/auth/authorize", WebFlow.parameters() + [("account_name", Fixture.alice.email), ("password", "wrong-password-123")])
            let text = logs.all.map(\.text).joined(separator: "\n")
            #expect(!logs.all.isEmpty)
            for secretValue in [Fixture.alice.password, "wrong-password-123", secret, code, refreshToken, Fixture.adminToken] {
                #expect(!text.contains(secretValue))
            }
        }
    }

    @Test("LOG_LEVEL=debug logs each request's method, path, status and duration, never its query")
    func requestsAreLoggedAtDebug() async throws {
        let logs = LogCapture()
        try await RunningEmulator.with(logger: logs.logger(level: .debug)) { emulator in
            _ = try await emulator.http.get("/auth/keys")
            _ = try await emulator.http.get("/auth/authorize?client_id=nobody.example&state=state-value-7f3a")
            let requests = logs.all.filter { $0.message == "request" }
            let keys = try #require(requests.first { $0.metadata["path"] == "/auth/keys" })
            #expect(keys.level == .debug)
            #expect(keys.metadata["method"] == "GET")
            #expect(keys.metadata["status"] == "200")
            #expect(keys.metadata["duration_ms"] != nil)
            let authorize = try #require(requests.first { $0.metadata["path"] == "/auth/authorize" })
            #expect(authorize.metadata["status"] == "400")
            #expect(!logs.all.map(\.text).joined().contains("state-value-7f3a"))
        }
        let quiet = LogCapture()
        try await RunningEmulator.with(logger: quiet.logger(level: .info)) { emulator in
            _ = try await emulator.http.get("/auth/keys")
            #expect(!quiet.all.contains { $0.message == "request" })
        }
    }
}
