import AppleIDEmulator
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import NIOCore
import Testing

/// Notification delivery against hostile endpoints (issue 40, findings 1 and 2): a redirect is a failed
/// attempt, never followed; a trickling endpoint holds only its own queue and ends at the deadline,
/// recorded as such; a refused connection reads plainly; an attempt is logged at its start.
@Suite("Notification delivery: redirects refused, slow endpoints isolated, deadlines recorded")
struct NotificationDeliveryHardeningTests {
    static func sendTest(_ emulator: RunningEmulator) async throws -> String {
        let sent = try await emulator.admin.postJSON(
            "/emulator/admin/send-test-notification", ["apple_id": Fixture.alice.email, "bundle_id": Fixture.bundleID])
        #expect(sent.status == 200, "\(sent.body)")
        return try #require(sent.json?["notification_id"] as? String)
    }

    /// Points the app's notifications at `url` (the seed replaces the app with the same bundle id).
    static func setNotificationURL(_ emulator: RunningEmulator, _ url: String) async throws {
        let seeded = try await emulator.admin.postJSON(
            "/emulator/admin/seed",
            [
                "apps": [
                    [
                        "team_id": Fixture.teamA.teamID, "bundle_id": Fixture.bundleID, "services_ids": [Fixture.servicesID],
                        "redirect_uris": [Fixture.redirectURI], "notification_url": url, "email_sources": ["example.com"],
                        "allow_local_redirects": true,
                    ]
                ]
            ])
        #expect(seeded.status == 200, "\(seeded.body)")
    }

    @Test("a 307 or 302 to another host is a failed attempt recorded with its status and retried; nothing reaches the Location")
    func redirectIsAFailedAttempt() async throws {
        try await NotificationReceiver.with { sink, sinkURL in
            for status in [307, 302] {
                try await ScriptedHTTPServer.with(.redirect(status: status, location: sinkURL)) { redirecting in
                    try await RunningEmulator.with(configuration: Fixture.configuration(notificationURL: redirecting.url("/apple/notifications"))) {
                        emulator in
                        #expect(try await WebFlow.signIn(emulator).status == 200)
                        let id = try await Self.sendTest(emulator)
                        try await eventually("attempt recorded") { try await NotificationDeliveryLogTests.attempts(emulator).count == 1 }
                        let attempt = try #require(try await NotificationDeliveryLogTests.attempts(emulator, "?notification_id=\(id)").first)
                        #expect(attempt["http_status"] as? Int == status)
                        #expect(attempt["error"] as? String == "redirect not followed", "\(attempt)")
                        #expect(attempt["next_attempt_at"] is Int, "retried with backoff: \(attempt)")
                        let entries = try await NotificationTests.notifications(emulator)
                        #expect(entries.first?["status"] as? String == "pending", "\(entries)")
                    }
                }
            }
            #expect(await sink.count == 0, "the signed notification was re-sent to the Location")
        }
    }

    @Test("an endpoint that trickles its body holds only its own notification: another endpoint's is delivered while it is in flight")
    func slowEndpointDoesNotStallOthers() async throws {
        // The slow attempt stays in flight for the whole test.
        let options = EmulatorOptions(
            outboxPollInterval: .milliseconds(20), outboxInitialBackoff: 2, outboxMaximumBackoff: 60, outboxRequestTimeout: .seconds(600))
        try await ScriptedHTTPServer.with(.trickle(interval: .milliseconds(100))) { slow in
            try await NotificationReceiver.with { healthy, healthyURL in
                try await RunningEmulator.with(
                    configuration: Fixture.configuration(notificationURL: slow.url("/apple/notifications")), options: options
                ) { emulator in
                    #expect(try await WebFlow.signIn(emulator).status == 200)
                    let slowID = try await Self.sendTest(emulator)
                    try await eventually("the slow endpoint is trickling") { slow.requests == 1 }
                    try await Self.setNotificationURL(emulator, healthyURL)
                    let healthyID = try await Self.sendTest(emulator)
                    try await eventually("the healthy endpoint got its notification") { await healthy.count == 1 }
                    try await eventually("its attempt is recorded") {
                        try await NotificationDeliveryLogTests.attempts(emulator, "?notification_id=\(healthyID)").count == 1
                    }
                    let delivered = try #require(try await NotificationDeliveryLogTests.attempts(emulator, "?notification_id=\(healthyID)").first)
                    #expect(delivered["http_status"] as? Int == 200)
                    #expect(try await NotificationDeliveryLogTests.attempts(emulator, "?notification_id=\(slowID)").isEmpty, "still in flight")
                    #expect(slow.requests == 1, "one delivery in flight per endpoint")
                }
            }
        }
    }

    @Test("a trickling body ends at the deadline (head and body together): recorded as a timeout, with no status, and retried")
    func deadlineIsRecorded() async throws {
        let options = EmulatorOptions(
            outboxPollInterval: .milliseconds(20), outboxInitialBackoff: 2, outboxMaximumBackoff: 60, outboxRequestTimeout: .milliseconds(300))
        try await ScriptedHTTPServer.with(.trickle(interval: .milliseconds(50))) { slow in
            try await RunningEmulator.with(configuration: Fixture.configuration(notificationURL: slow.url("/apple/notifications")), options: options)
            {
                emulator in
                #expect(try await WebFlow.signIn(emulator).status == 200)
                _ = try await Self.sendTest(emulator)
                try await eventually("attempt recorded") { try await NotificationDeliveryLogTests.attempts(emulator).count == 1 }
                let attempt = try #require(try await NotificationDeliveryLogTests.attempts(emulator).first)
                #expect(attempt["http_status"] is NSNull || attempt["http_status"] == nil)
                #expect(attempt["error"] as? String == "timeout: no complete answer within 0.3 s (head and body)", "\(attempt)")
                #expect(attempt["next_attempt_at"] is Int)
            }
        }
    }

    @Test("a body over 64 KiB is not read: the attempt fails with the status and the reason")
    func largeBodyIsRecorded() async throws {
        try await ScriptedHTTPServer.with(.large(size: 200_000)) { large in
            try await RunningEmulator.with(configuration: Fixture.configuration(notificationURL: large.url("/apple/notifications"))) { emulator in
                #expect(try await WebFlow.signIn(emulator).status == 200)
                _ = try await Self.sendTest(emulator)
                try await eventually("attempt recorded") { try await NotificationDeliveryLogTests.attempts(emulator).count == 1 }
                let attempt = try #require(try await NotificationDeliveryLogTests.attempts(emulator).first)
                #expect(attempt["http_status"] as? Int == 200)
                #expect(attempt["error"] as? String == "HTTP 200 with a body over 65536 bytes (not read)", "\(attempt)")
                #expect(attempt["next_attempt_at"] is Int)
            }
        }
    }

    @Test("an attempt is logged at its start, not its end; a refused connection reads \"unreachable: connection refused\"")
    func attemptTimeIsTheStart() async throws {
        try await ScriptedHTTPServer.with(.trickle(interval: .milliseconds(100))) { slow in
            let clock = TestClock()
            let options = EmulatorOptions(
                outboxPollInterval: .milliseconds(20), outboxInitialBackoff: 2, outboxMaximumBackoff: 60, outboxRequestTimeout: .seconds(600))
            try await RunningEmulator.with(
                configuration: Fixture.configuration(notificationURL: slow.url("/apple/notifications")), clock: clock, options: options
            ) {
                emulator in
                #expect(try await WebFlow.signIn(emulator).status == 200)
                let started = Int(clock.now.timeIntervalSince1970)
                _ = try await Self.sendTest(emulator)
                try await eventually("in flight") { slow.requests == 1 }
                clock.advance(by: 100)
                await slow.closeConnections()
                try await eventually("attempt recorded") { try await NotificationDeliveryLogTests.attempts(emulator).count == 1 }
                let attempt = try #require(try await NotificationDeliveryLogTests.attempts(emulator).first)
                let attemptedAt = try #require(attempt["attempted_at"] as? Int)
                #expect(attemptedAt >= started && attemptedAt < started + 100, "\(attempt)")
                #expect(attempt["next_attempt_at"] as? Int == started + 100 + 2, "the backoff counts from the end: \(attempt)")
            }
        }
        let closed = try await ScriptedHTTPServer.with(.plain(status: 200)) { $0.url("/apple/notifications") }
        try await RunningEmulator.with(configuration: Fixture.configuration(notificationURL: closed)) { emulator in
            #expect(try await WebFlow.signIn(emulator).status == 200)
            _ = try await Self.sendTest(emulator)
            try await eventually("attempt recorded") { try await NotificationDeliveryLogTests.attempts(emulator).count == 1 }
            let attempt = try #require(try await NotificationDeliveryLogTests.attempts(emulator).first)
            #expect(attempt["error"] as? String == "unreachable: connection refused", "\(attempt)")
        }
    }
}
