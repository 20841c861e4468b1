import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Verifies the server-to-server notifications Apple POSTs as `{"payload": "<JWT>"}`.
///
/// The JWT is checked like an identity token (RS256 by an Apple key, `iss`, `aud` among your client
/// ids, `exp`/`iat`); `events` may be a JSON string (as Apple sends it) or an object, `event_time`
/// milliseconds or seconds, and unknown event types are returned as ``ServerNotification/EventType/unknown(_:)``.
///
/// ```swift
/// let notifications = ServerNotificationVerifier(keys: keys, audiences: configuration.clientIDs)
/// let notification = try await notifications.verify(body: requestBody)
/// if try await seen.insert(notification.id) { apply(notification) }
/// ```
public struct ServerNotificationVerifier: Sendable {
    private let settings: AppleJWTSettings
    private let claimRules: [any TokenRule] = [IssuerRule(), AudienceRule(), NumericClaimsRule(), LifetimeRule()]

    /// The largest request body accepted.
    public static let maximumBodySize = 64 * 1024

    /// Creates a verifier.
    public init(
        keys: AppleKeySet,
        issuer: String = AppleSignInConfiguration.appleIssuer,
        audiences: some Sequence<String>,
        clockSkew: TimeInterval = 60,
        time: TimeSource = .system
    ) {
        self.settings = AppleJWTSettings(keys: keys, issuer: issuer, audiences: audiences, clockSkew: clockSkew, time: time)
    }

    /// Verifies a request body `{"payload": "<JWT>"}`.
    public func verify(body: some Collection<UInt8>) async throws(TokenVerificationError) -> ServerNotification {
        guard body.count <= Self.maximumBodySize else { throw .malformed("the body is larger than \(Self.maximumBodySize) bytes") }
        guard let document = try? JSONParser.parse(Array(body)), let payload = document["payload"]?.stringValue else {
            throw .malformed("the body is not a JSON object with a \"payload\" string")
        }
        return try await verify(payload: payload)
    }

    /// Verifies the notification JWT itself.
    public func verify(payload token: String) async throws(TokenVerificationError) -> ServerNotification {
        let jws = try await settings.signature.verify(token)
        return try checkClaims(of: jws, now: settings.time.now)
    }

    /// Every rule after the signature (issuer, audience, lifetime), then the event.
    func checkClaims(of jws: CompactJWS, now: Date) throws(TokenVerificationError) -> ServerNotification {
        try AppleJWTSettings.check(jws.claims, by: claimRules, against: settings.expectations(now: now))
        return try Self.notification(from: jws.claims)
    }

    /// The last second of the year 9999: later event times are refused as malformed.
    static let latestEventTime: Double = 253_402_300_799

    static func notification(from claims: ClaimSet) throws(TokenVerificationError) -> ServerNotification {
        guard let id = claims[.jti]?.stringValue, !id.isEmpty else { throw .malformed("the notification has no \"jti\"") }
        let event: [String: JSONValue]
        switch claims[.events] {
        case .string(let text)?:
            guard case .object(let object)? = try? JSONParser.parse(text) else { throw .malformed("\"events\" is a string but not a JSON object") }
            event = object
        case .object(let object)?:
            event = object
        default:
            throw .malformed("the notification has no \"events\" object")
        }
        guard let type = event["type"]?.stringValue, !type.isEmpty else { throw .malformed("the event has no \"type\"") }
        guard let subject = event["sub"]?.stringValue, !subject.isEmpty else { throw .malformed("the event has no \"sub\"") }
        guard let rawTime = event["event_time"]?.doubleValue ?? event["event_time"]?.stringValue.flatMap(Double.init) else {
            throw .malformed("the event has no numeric \"event_time\"")
        }
        // Apple sends milliseconds; anything below 10^11 must be seconds (10^11 ms is 1973).
        let eventTime = rawTime >= 1e11 ? rawTime / 1000 : rawTime
        // A signed but absurd time (1e22, -1e300, infinity) is refused here, so no caller ever turns
        // it into an integer that cannot hold it.
        guard eventTime.isFinite, (0...Self.latestEventTime).contains(eventTime) else {
            throw .malformed("\"event_time\" is not a time between 1970 and 9999")
        }
        return ServerNotification(
            id: id,
            audience: IdentityToken.firstAudience(in: claims[.aud]),
            issuedAt: Date(timeIntervalSince1970: claims[.iat]?.doubleValue ?? 0),
            type: ServerNotification.EventType(rawValue: type),
            subject: subject,
            eventTime: Date(timeIntervalSince1970: eventTime),
            email: event["email"]?.stringValue,
            isPrivateEmail: event["is_private_email"]?.lenientBool,
            rawEvent: event
        )
    }
}
