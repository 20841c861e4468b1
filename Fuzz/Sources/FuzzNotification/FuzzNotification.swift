@_spi(Fuzzing) import AppleSignIn
import Foundation
import FuzzSupport

// Input: one flags byte, then the rest.
// - bit 0 clear: the rest is a request body for `POST /apple/notifications`, verified through the public
//   `ServerNotificationVerifier.verify(body:)` (JSON body, JWS, RS256 signature, claim rules, event);
// - bit 0 set: the rest is the JSON payload of a notification taken as validly signed by Apple (what the
//   issue's crash needed: a signed but hostile `event_time`), checked by the claim rules and decoded.
// Every accepted notification must carry an event the server can store.

let verifier = ServerNotificationVerifier(
    keys: FuzzApple.keys, issuer: FuzzApple.issuer, audiences: FuzzApple.audiences, time: .fixed(FuzzApple.now)
)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNotification(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if data[0] & 1 == 0 {
        if let accepted = runBlocking({ try? await verifier.verify(body: rest) }) { check(accepted) }
    } else if let accepted = try? FuzzingEntryPoints.notification(FuzzApple.unsignedToken(payload: rest), verifier: verifier, now: FuzzApple.now) {
        check(accepted)
    }
    return 0
}

/// What holds for every notification the verifier accepts: the server turns the event time into a
/// whole number of seconds and milliseconds and stores the ids as text.
func check(_ notification: ServerNotification) {
    fuzzRequire(!notification.id.isEmpty, "accepted a notification without jti")
    fuzzRequire(!notification.subject.isEmpty, "accepted an event without sub")
    fuzzRequire(FuzzApple.audiences.contains(notification.audience), "accepted audience \(notification.audience)")
    let seconds = notification.eventTime.timeIntervalSince1970
    fuzzRequire(seconds.isFinite && (0...253_402_300_799).contains(seconds), "accepted event_time \(seconds)")
    fuzzRequire(Int64(exactly: (seconds * 1000).rounded()) != nil, "event_time \(seconds) does not fit in milliseconds")
}
