import Foundation
import JuiceEncodings
import Testing

@testable import AppleSignIn

@Suite("Server-to-server notifications")
struct ServerNotificationVerifierTests {
    let time = ManualTime()

    func verifier() throws -> ServerNotificationVerifier {
        ServerNotificationVerifier(keys: try TestKeys.staticKeySet(time: time.source), audiences: [TokenForge.audience], time: time.source)
    }

    func payload(events: JSONValue, aud: String = TokenForge.audience, jti: String = "jti-1") -> [String: JSONValue] {
        let iat = Int64(time.now.timeIntervalSince1970)
        return [
            "iss": .string(TokenForge.issuer), "aud": .string(aud), "iat": .integer(iat), "exp": .integer(iat + 300), "jti": .string(jti),
            "events": events,
        ]
    }

    func body(_ claims: [String: JSONValue], key: TestKeyChoice = .apple) -> [UInt8] {
        let token = key == .apple ? TokenForge.rs256(claims) : TokenForge.rs256(claims, key: TestKeys.attacker)
        return Array(JSONValue.object(["payload": .string(token)]).jsonString().utf8)
    }

    enum TestKeyChoice { case apple, attacker }

    @Test("all event types, including both spellings of account deletion, with events as a JSON string and event_time in ms")
    func eventTypes() async throws {
        let millis = Int64(time.now.timeIntervalSince1970 * 1000)
        let cases: [(String, ServerNotification.EventType)] = [
            ("email-disabled", .emailDisabled), ("email-enabled", .emailEnabled), ("consent-revoked", .consentRevoked),
            ("account-delete", .accountDeleted), ("account-deleted", .accountDeleted),
        ]
        for (raw, expected) in cases {
            let events =
                #"{"type":"\#(raw)","sub":"001.abc.002","event_time":\#(millis),"email":"r@privaterelay.appleid.com","is_private_email":"true"}"#
            let notification = try await verifier().verify(body: body(payload(events: .string(events))))
            #expect(notification.type == expected)
            #expect(notification.subject == "001.abc.002")
            #expect(notification.eventTime.timeIntervalSince1970 == Double(millis) / 1000)
            #expect(notification.id == "jti-1")
            #expect(notification.isPrivateEmail == true)
        }
    }

    @Test("events as an object and event_time in seconds are accepted; unknown types are surfaced")
    func liberalShapes() async throws {
        let seconds = Int64(time.now.timeIntervalSince1970)
        let events: JSONValue = .object(["type": .string("future-event"), "sub": .string("s"), "event_time": .integer(seconds)])
        let notification = try await verifier().verify(body: body(payload(events: events)))
        #expect(notification.type == .unknown("future-event"))
        #expect(notification.eventTime == Date(timeIntervalSince1970: Double(seconds)))
    }

    @Test("forged, misaddressed and stale notifications are refused")
    func refusals() async throws {
        let events: JSONValue = .object(["type": .string("consent-revoked"), "sub": .string("s"), "event_time": .integer(1)])
        await #expect(throws: TokenVerificationError(.badSignature, "")) {
            try await verifier().verify(body: body(payload(events: events), key: .attacker))
        }
        await #expect(throws: TokenVerificationError(.wrongAudience, "")) {
            try await verifier().verify(body: body(payload(events: events, aud: "com.other")))
        }
        var wrongIssuer = payload(events: events)
        wrongIssuer["iss"] = .string("https://evil.example")
        await #expect(throws: TokenVerificationError(.wrongIssuer, "")) { try await verifier().verify(body: body(wrongIssuer)) }
        let stale = body(payload(events: events))
        time.advance(by: 3600)
        await #expect(throws: TokenVerificationError(.expired, "")) { try await verifier().verify(body: stale) }
    }

    @Test("bodies and events that are not Apple's shape are malformed")
    func malformed() async throws {
        for bad in ["", "{}", #"{"payload": 1}"#, "not json"] {
            await #expect(throws: TokenVerificationError(.malformed, "")) { try await verifier().verify(body: Array(bad.utf8)) }
        }
        for events: JSONValue in [
            .string("{not json"), .integer(3), .object(["sub": .string("s"), "event_time": .integer(1)]),
            .object(["type": .string("x"), "event_time": .integer(1)]),
        ] {
            await #expect(throws: TokenVerificationError(.malformed, "")) { try await verifier().verify(body: body(payload(events: events))) }
        }
        // Signed by Apple's key but out of any range a time can have: refused, never trapped on.
        for time: JSONValue in [
            .number(1e22), .number(-1e300), .string("1e300"), .string("-1"), .string("nan"), .string("inf"), .array([.integer(1)]),
            .integer(-1), .integer(Int64.max), .integer(Int64.min), .number(253_402_300_800_000 * 10),
        ] {
            let events: JSONValue = .object(["type": .string("consent-revoked"), "sub": .string("s"), "event_time": time])
            await #expect(throws: TokenVerificationError(.malformed, ""), "event_time \(time)") {
                try await verifier().verify(body: body(payload(events: events)))
            }
        }
        var noJTI = payload(events: .object(["type": .string("x"), "sub": .string("s"), "event_time": .integer(1)]))
        noJTI["jti"] = nil
        await #expect(throws: TokenVerificationError(.malformed, "")) { try await verifier().verify(body: body(noJTI)) }
    }
}
