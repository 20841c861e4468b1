import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A verified server-to-server notification from Apple.
public struct ServerNotification: Sendable, Hashable {
    /// The kind of event.
    public enum EventType: Sendable, Hashable, CustomStringConvertible {
        /// The person stopped forwarding email to their relay address.
        case emailDisabled
        /// The person resumed forwarding email to their relay address.
        case emailEnabled
        /// The person stopped using Sign in with Apple with the app (tokens are revoked).
        case consentRevoked
        /// The person deleted their Apple ID (`account-delete`, or `account-deleted` in newer docs).
        case accountDeleted
        /// A type this version does not know, surfaced rather than refused.
        case unknown(String)

        init(rawValue: String) {
            switch rawValue {
            case "email-disabled": self = .emailDisabled
            case "email-enabled": self = .emailEnabled
            case "consent-revoked": self = .consentRevoked
            case "account-delete", "account-deleted": self = .accountDeleted
            default: self = .unknown(rawValue)
            }
        }

        public var description: String {
            switch self {
            case .emailDisabled: "email-disabled"
            case .emailEnabled: "email-enabled"
            case .consentRevoked: "consent-revoked"
            case .accountDeleted: "account-delete"
            case .unknown(let raw): raw
            }
        }
    }

    /// The unique id of this notification (`jti`): deliveries repeat, so dedupe on it.
    public let id: String
    /// The client id it was sent for (`aud`).
    public let audience: String
    /// When it was issued.
    public let issuedAt: Date
    /// The event.
    public let type: EventType
    /// The user it concerns.
    public let subject: String
    /// When the event happened (`event_time`, sent in milliseconds; seconds accepted).
    public let eventTime: Date
    /// The relay address, for email events.
    public let email: String?
    /// Whether ``email`` is a relay address, for email events.
    public let isPrivateEmail: Bool?
    /// The `events` object as sent.
    package let rawEvent: [String: JSONValue]
}
