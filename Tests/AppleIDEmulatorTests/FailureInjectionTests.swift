import AppleSignIn
import Foundation
import JuiceTestSupport
import NIOHTTP1
import Synchronization
import Testing

@testable import AppleIDEmulator

/// Failure injection (`/emulator/admin/failures`): each kind does what it names, for the client and the
/// number of requests given; bad input is refused with a reason; a reset clears everything.
@Suite("Failure injection")
struct FailureInjectionTests {
    static let admin = [("Authorization", "Bearer \(Fixture.adminToken)"), ("Content-Type", "application/json")]

    /// Records each requested delay and returns at once: a 60-second delay costs no wall time.
    final class RecordingSleep: Sendable {
        private let delays = Mutex<[Duration]>([])
        var recorded: [Duration] { delays.withLock { $0 } }
        var sleep: EmulatorSleep { EmulatorSleep { duration in self.delays.withLock { $0.append(duration) } } }
    }

    static func inject(_ emulator: RunningEmulator, _ json: String) async throws -> HTTPResult {
        try await emulator.http.post("/emulator/admin/failures", json: json, headers: admin)
    }

    static func listed(_ emulator: RunningEmulator) async throws -> [[String: Any]] {
        try await emulator.http.get("/emulator/admin/failures", headers: admin).json?["failures"] as? [[String: Any]] ?? []
    }

    /// A device sign-in's code (redeemable by the bundle id without a redirect URI).
    static func deviceCode(_ emulator: RunningEmulator) async throws -> String {
        let answer = try await DeviceSignInTests.authorize(emulator)
        return try #require(answer.json?["authorizationCode"] as? String)
    }

    static func redeem(_ emulator: RunningEmulator, _ code: String, clientID: String = Fixture.bundleID) async throws -> HTTPResult {
        let secret = try await emulator.secret(clientID: clientID)
        return try await emulator.http.postForm(
            "/auth/token", [("client_id", clientID), ("client_secret", secret), ("grant_type", "authorization_code"), ("code", code)])
    }

    @Test("token_server_error for one request of one client: a 503 server_error, the code unspent, other clients unaffected")
    func tokenServerErrorOnce() async throws {
        try await RunningEmulator.with { emulator in
            let added = try await Self.inject(emulator, #"{"kind": "token_server_error", "client_id": "com.example.app", "count": 1}"#)
            #expect(added.status == 200, "\(added.body)")
            #expect(added.json?["remaining"] as? Int == 1 && added.json?["status"] as? Int == 503)
            // Another client's request is not counted.
            let other = try await Self.redeem(emulator, "c.unknown", clientID: Fixture.servicesID)
            #expect(other.error == "invalid_grant")
            let code = try await Self.deviceCode(emulator)
            let failed = try await Self.redeem(emulator, code)
            #expect(failed.status == 503 && failed.error == "server_error", "\(failed.body)")
            #expect(try await Self.listed(emulator).isEmpty, "the count ran out")
            let redeemed = try await Self.redeem(emulator, code)
            #expect(redeemed.status == 200, "the failed request spent nothing: \(redeemed.body)")
        }
    }

    @Test("invalid_grant, invalid_client and malformed JSON until cleared, whatever the request; DELETE clears one or all")
    func tokenRefusalsUntilCleared() async throws {
        try await RunningEmulator.with { emulator in
            for (kind, error) in [("token_invalid_grant", "invalid_grant"), ("token_invalid_client", "invalid_client")] {
                let added = try await Self.inject(emulator, #"{"kind": "\#(kind)"}"#)
                let id = try #require(added.json?["id"] as? Int)
                #expect(added.json?["remaining"] is NSNull && added.json?["client_id"] is NSNull, "\(added.body)")
                for _ in 0..<2 {
                    let refused = try await Self.redeem(emulator, try await Self.deviceCode(emulator))
                    #expect(refused.status == 400 && refused.error == error, "\(refused.body)")
                }
                let cleared = try await emulator.http.send(.DELETE, "/emulator/admin/failures?id=\(id)", headers: Self.admin, body: nil)
                #expect(cleared.json?["cleared"] as? Int == 1)
            }
            #expect(try await Self.inject(emulator, #"{"kind": "token_malformed_json", "count": 2}"#).status == 200)
            let malformed = try await Self.redeem(emulator, try await Self.deviceCode(emulator))
            #expect(malformed.status == 200 && malformed.json == nil && malformed.body == TokenEndpointFailure.malformedBody)
            #expect(try await Self.listed(emulator).first?["remaining"] as? Int == 1)
            let all = try await emulator.http.send(.DELETE, "/emulator/admin/failures", headers: Self.admin, body: nil)
            #expect(all.json?["cleared"] as? Int == 1)
            #expect(try await Self.redeem(emulator, try await Self.deviceCode(emulator)).status == 200)
            let unknown = try await emulator.http.send(.DELETE, "/emulator/admin/failures?id=99", headers: Self.admin, body: nil)
            #expect(unknown.status == 404 && unknown.error == "not_found")
        }
    }

    @Test("token_delay and keys_delay answer as usual after the delay, waited through the injected sleep")
    func delays() async throws {
        let sleep = RecordingSleep()
        try await RunningEmulator.with(sleep: sleep.sleep) { emulator in
            #expect(try await Self.inject(emulator, #"{"kind": "token_delay", "delay_seconds": 60, "count": 1}"#).status == 200)
            #expect(try await Self.inject(emulator, #"{"kind": "keys_delay", "delay_seconds": 0.25}"#).status == 200)
            #expect(try await Self.redeem(emulator, try await Self.deviceCode(emulator)).status == 200)
            let keys = try await emulator.http.get("/auth/keys")
            #expect(keys.status == 200 && (keys.json?["keys"] as? [Any])?.isEmpty == false)
            #expect(sleep.recorded == [.seconds(60), .milliseconds(250)])
        }
    }

    @Test("keys_server_error answers the 5xx asked for; rotate_signing_key publishes a new key at once")
    func keyEndpoint() async throws {
        try await RunningEmulator.with { emulator in
            let before = try #require(try await DeviceSignInTests.authorize(emulator).json?["identityToken"] as? String)
            #expect(try await Self.inject(emulator, #"{"kind": "keys_server_error", "status": 500, "count": 1}"#).status == 200)
            let failed = try await emulator.http.get("/auth/keys")
            #expect(failed.status == 500 && failed.error == "server_error")
            let rotated = try await Self.inject(emulator, #"{"kind": "rotate_signing_key"}"#)
            let keyID = try #require(rotated.json?["signing_key_id"] as? String)
            let after = try await emulator.http.get("/auth/keys").json?["keys"] as? [[String: Any]] ?? []
            #expect(WebFlow.header(before)["kid"] as? String != keyID && after.contains { $0["kid"] as? String == keyID })
            #expect(try await Self.listed(emulator).isEmpty, "a rotation is done, not kept")
            let token = try #require(try await DeviceSignInTests.authorize(emulator).json?["identityToken"] as? String)
            #expect(WebFlow.header(token)["kid"] as? String == keyID)
        }
    }

    @Test("issuer_drift: discovery says https://account.apple.com while tokens keep the emulator's issuer")
    func issuerDrift() async throws {
        try await RunningEmulator.with(issuer: "https://appleid.apple.com") { emulator in
            #expect(try await Self.inject(emulator, #"{"kind": "issuer_drift", "count": 1}"#).status == 200)
            #expect(try await emulator.http.get("/.well-known/openid-configuration").json?["issuer"] as? String == "https://account.apple.com")
            let token = try #require(try await DeviceSignInTests.authorize(emulator).json?["identityToken"] as? String)
            #expect(WebFlow.claims(token)["iss"] as? String == "https://appleid.apple.com")
            #expect(try await emulator.http.get("/.well-known/openid-configuration").json?["issuer"] as? String == "https://appleid.apple.com")
        }
    }

    @Test("omit_email: the client's next identity token carries no email claims; the one after does")
    func omitEmail() async throws {
        try await RunningEmulator.with { emulator in
            #expect(try await Self.inject(emulator, #"{"kind": "omit_email", "client_id": "com.example.app", "count": 1}"#).status == 200)
            let first = try #require(try await DeviceSignInTests.authorize(emulator).json?["identityToken"] as? String)
            let claims = WebFlow.claims(first)
            #expect(claims["email"] == nil && claims["email_verified"] == nil && claims["is_private_email"] == nil && claims["sub"] is String)
            let second = try #require(try await DeviceSignInTests.authorize(emulator).json?["identityToken"] as? String)
            #expect(WebFlow.claims(second)["email"] as? String == Fixture.alice.email)
        }
    }

    @Test("relay_domain: new relay addresses of the client are issued on the domain asked for")
    func relayDomain() async throws {
        try await RunningEmulator.with { emulator in
            #expect(
                try await Self.inject(
                    emulator, #"{"kind": "relay_domain", "client_id": "com.example.app", "relay_domain": "privaterelay.appleid.com"}"#
                )
                .status == 200)
            let answer = try await DeviceSignInTests.authorize(emulator, [("email_choice", "hide")], account: Fixture.bob)
            #expect((answer.json?["email"] as? String)?.hasSuffix("@privaterelay.appleid.com") == true, "\(answer.body)")
        }
    }

    @Test("drop_notifications: the notification is never sent, and the delivery log shows it dropped and given up")
    func dropNotifications() async throws {
        try await NotificationReceiver.with { receiver, url in
            try await RunningEmulator.with(configuration: Fixture.configuration(notificationURL: url)) { emulator in
                #expect(try await WebFlow.signIn(emulator).status == 200)
                #expect(
                    try await Self.inject(emulator, #"{"kind": "drop_notifications", "client_id": "com.example.app", "count": 1}"#).status == 200)
                let sent = try await emulator.admin.postJSON(
                    "/emulator/admin/send-test-notification", ["apple_id": Fixture.alice.email, "bundle_id": Fixture.bundleID])
                #expect(sent.status == 200, "\(sent.body)")
                try await eventually("the drop is logged") { try await NotificationDeliveryLogTests.attempts(emulator).count == 1 }
                let attempt = try #require(try await NotificationDeliveryLogTests.attempts(emulator).first)
                #expect(attempt["error"] as? String == DroppedNotification.reason && (attempt["next_attempt_at"] ?? NSNull()) is NSNull, "\(attempt)")
                #expect(await receiver.count == 0)
                // The next one (the count ran out) is delivered.
                #expect(
                    try await emulator.admin.postJSON(
                        "/emulator/admin/send-test-notification", ["apple_id": Fixture.alice.email, "bundle_id": Fixture.bundleID]
                    ).status == 200)
                try await eventually("delivered") { await receiver.count == 1 }
            }
        }
    }

    static let badInputs = [
        (#"{"kind": "token_meltdown"}"#, "unknown kind"),
        (#"{"kind": "token_server_error", "count": -1}"#, "count must be an integer from 1"),
        (#"{"kind": "token_server_error", "count": 0}"#, "count must be an integer from 1"),
        (#"{"kind": "token_server_error", "count": 1.5}"#, "count has the wrong type"),
        (#"{"kind": "token_server_error", "count": true}"#, "count has the wrong type"),
        (#"{"kind": "token_delay", "delay_seconds": 61}"#, "delay_seconds must be"),
        (#"{"kind": "token_delay", "delay_seconds": -1}"#, "delay_seconds must be"),
        (#"{"kind": "token_delay"}"#, "delay_seconds must be"),
        (#"{"kind": "keys_delay", "delay_seconds": "5"}"#, "delay_seconds has the wrong type"),
        (#"{"kind": "token_server_error", "client_id": "com.unknown.app"}"#, "client_id is not a registered client id"),
        (#"{"kind": "drop_notifications", "client_id": "com.example.app.web"}"#, "client_id must be a registered app's bundle id"),
        (#"{"kind": "keys_server_error", "client_id": "com.example.app"}"#, "applies to every client"),
        (#"{"kind": "token_server_error", "status": 404}"#, "status must be from 500 to 599"),
        (#"{"kind": "token_invalid_grant", "status": 500}"#, "status applies to"),
        (#"{"kind": "relay_domain", "relay_domain": "evil.example"}"#, "relay_domain must be one of"),
        (#"{"kind": "relay_domain", "relay_domain": "icloud.com", "count": 2}"#, "count does not apply"),
        (#"{"kind": "omit_email", "delay_seconds": 1}"#, "delay_seconds applies to"),
        (#"{"kind": "omit_email", "clientid": "x"}"#, "unknown field clientid"),
        (#"{"count": 1}"#, "kind is required"),
        (#"["token_server_error"]"#, "the body must be a JSON object"),
    ]

    @Test("bad input (unknown kind, a negative count, a delay over 60 s, an unknown client id, …) is a 400 naming the problem, and adds nothing")
    func badInput() async throws {
        try await RunningEmulator.with { emulator in
            for (body, reason) in Self.badInputs {
                let refused = try await Self.inject(emulator, body)
                #expect(refused.status == 400 && refused.error == "invalid_request", "\(body): \(refused.body)")
                #expect((refused.json?["error_description"] as? String)?.contains(reason) == true, "\(body): \(refused.body)")
            }
            #expect(try await Self.listed(emulator).isEmpty)
        }
    }

    @Test("a reset clears every failure; without the admin token the API answers 401")
    func resetAndGuard() async throws {
        try await RunningEmulator.with { emulator in
            #expect(try await Self.inject(emulator, #"{"kind": "token_server_error"}"#).status == 200)
            #expect(try await Self.inject(emulator, #"{"kind": "issuer_drift"}"#).status == 200)
            #expect(try await Self.listed(emulator).count == 2)
            #expect(try await FixtureAPITests.post(emulator, "reset", "{}").status == 200)
            #expect(try await Self.listed(emulator).isEmpty)
            #expect(try await Self.redeem(emulator, try await Self.deviceCode(emulator)).status == 200)
            let anonymous = try await emulator.http.post(
                "/emulator/admin/failures", json: #"{"kind": "token_server_error"}"#, headers: [("Content-Type", "application/json")])
            #expect(anonymous.status == 401)
            #expect(try await Self.listed(emulator).isEmpty)
        }
    }
}
