import AppleIDEmulator
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Testing

/// Every notification attempt is recorded (time, URL, HTTP status or connection error, next retry) and
/// shown by the admin API and the portal; a test notification can be sent from both.
@Suite("Notification delivery log and test notifications")
struct NotificationDeliveryLogTests {
    static func attempts(_ emulator: RunningEmulator, _ query: String = "") async throws -> [[String: Any]] {
        let result = try await emulator.http.get(
            "/emulator/admin/notifications/attempts" + query, headers: [("Authorization", "Bearer \(Fixture.adminToken)")])
        #expect(result.status == 200, "\(result.body)")
        return result.json?["attempts"] as? [[String: Any]] ?? []
    }

    @Test("a test notification to an endpoint answering 500 then 200 shows both attempts, the retry time, and the delivery (API and portal)")
    func fiveHundredThenDelivered() async throws {
        try await NotificationReceiver.with(failFirst: 1) { receiver, url in
            let clock = TestClock()
            try await OutboxPolls.observing { polls in
                try await RunningEmulator.with(configuration: Fixture.configuration(notificationURL: url), clock: clock) { emulator in
                    #expect(try await WebFlow.signIn(emulator).status == 200)
                    let sent = try await emulator.admin.postJSON(
                        "/emulator/admin/send-test-notification", ["apple_id": Fixture.alice.email, "bundle_id": Fixture.bundleID])
                    #expect(sent.status == 200, "\(sent.body)")
                    let id = try #require(sent.json?["notification_id"] as? String)
                    try await eventually("first attempt recorded") { try await Self.attempts(emulator).count == 1 }
                    let first = try #require(try await Self.attempts(emulator, "?notification_id=\(id)").first)
                    #expect(first["http_status"] as? Int == 500)
                    #expect(first["url"] as? String == url)
                    #expect(first["type"] as? String == "test")
                    let attemptedAt = try #require(first["attempted_at"] as? Int)
                    #expect(first["next_attempt_at"] as? Int == attemptedAt + 2, "the first backoff is 2 s in these tests: \(first)")
                    // Not retried before the backoff has passed (the emulator's clock decides): polls start nothing.
                    let mark = polls.count
                    try await eventually("polls with nothing due") { polls.quiet(since: mark) }
                    #expect(await receiver.count == 1)
                    clock.advance(by: 2)
                    try await eventually("second attempt recorded") { try await Self.attempts(emulator).count == 2 }
                    let second = try #require(try await Self.attempts(emulator, "?apple_id=\(Fixture.alice.email)").last)
                    #expect(second["http_status"] as? Int == 200)
                    #expect(second["next_attempt_at"] is NSNull || second["next_attempt_at"] == nil)
                    #expect(second["error"] is NSNull || second["error"] == nil)
                    let body = try #require(await receiver.bodies.last)
                    let payload = try #require((try JSONSerialization.jsonObject(with: Data(body)) as? [String: String])?["payload"])
                    #expect((WebFlow.claims(payload)["events"] as? String)?.contains(#""type":"test""#) == true)
                    let (_, page) = try await AccountPortalTests.signIn(emulator)
                    #expect(page.body.contains("HTTP 500") && page.body.contains("HTTP 200"))
                    #expect(page.body.components(separatedBy: #"<tr class="attempt">"#).count == 3)
                }
            }
        }
    }

    @Test("a connection error is recorded as such, with no HTTP status and the next retry")
    func connectionError() async throws {
        // A port no test is handed (FreePort's pool, below the ephemeral range) and nothing listens on: a
        // receiver's closed ephemeral port could be taken by another test's server meanwhile.
        let closed = "http://127.0.0.1:\(try FreePort.pick())/apple/notifications"
        try await RunningEmulator.with(configuration: Fixture.configuration(notificationURL: closed)) { emulator in
            #expect(try await WebFlow.signIn(emulator).status == 200)
            let sent = try await emulator.admin.postJSON(
                "/emulator/admin/send-test-notification", ["apple_id": Fixture.alice.email, "bundle_id": Fixture.bundleID])
            #expect(sent.status == 200)
            try await eventually("attempt recorded") { try await Self.attempts(emulator).count == 1 }
            let attempt = try #require(try await Self.attempts(emulator).first)
            #expect(attempt["http_status"] is NSNull || attempt["http_status"] == nil)
            #expect((attempt["error"] as? String)?.hasPrefix("unreachable") == true, "\(attempt)")
            #expect(attempt["next_attempt_at"] is Int)
        }
    }

    @Test("the portal's button sends a test notification; refusals: no URL, unknown app, never signed in, bad id, no admin token")
    func refusals() async throws {
        try await NotificationReceiver.with { receiver, url in
            try await RunningEmulator.with(configuration: Fixture.configuration(notificationURL: url)) { emulator in
                #expect(try await WebFlow.signIn(emulator).status == 200)
                let (cookie, page) = try await AccountPortalTests.signIn(emulator)
                let csrf = try #require(WebFlow.hiddenInputs(page.body)["csrf"])
                let button = try await emulator.http.postForm(
                    "/account/test-notification", [("csrf", csrf), ("bundle_id", Fixture.bundleID)], headers: [("Cookie", cookie)])
                #expect(button.status == 303)
                try await eventually("delivered") { await receiver.count == 1 }
                let forged = try await emulator.http.postForm(
                    "/account/test-notification", [("csrf", "forged"), ("bundle_id", Fixture.bundleID)], headers: [("Cookie", cookie)])
                #expect(forged.status == 403)

                for (body, status) in [
                    (["apple_id": Fixture.alice.email, "bundle_id": Fixture.otherBundleID], 400),  // no notification_url
                    (["apple_id": Fixture.alice.email, "bundle_id": "com.example.nope"], 404),
                    (["apple_id": Fixture.bob.email, "bundle_id": Fixture.bundleID], 404),  // never signed in
                    (["apple_id": Fixture.alice.email], 400),
                ] as [([String: String], Int)] {
                    let answer = try await emulator.admin.postJSON("/emulator/admin/send-test-notification", body)
                    #expect(answer.status == status, "\(body): \(answer.body)")
                }
                let anonymous = try await emulator.http.postJSON(
                    "/emulator/admin/send-test-notification", ["apple_id": Fixture.alice.email, "bundle_id": Fixture.bundleID])
                #expect(anonymous.status == 401)
                for query in ["?notification_id=abc", "?notification_id=-1", "?notification_id=99999999999999999999"] {
                    let bad = try await emulator.http.get(
                        "/emulator/admin/notifications/attempts" + query, headers: [("Authorization", "Bearer \(Fixture.adminToken)")])
                    #expect(bad.status == 400, "\(query)")
                }
                #expect(try await emulator.http.get("/emulator/admin/notifications/attempts").status == 401)
            }
        }
    }
}
