import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Server-to-server notification types Apple sends.
enum NotificationType: String, Sendable {
    case emailDisabled = "email-disabled"
    case emailEnabled = "email-enabled"
    case consentRevoked = "consent-revoked"
    case accountDelete = "account-delete"
    /// Not one of Apple's events: what the emulator's "send a test notification" action sends, to check
    /// that an endpoint is reachable, verifies the signature and answers 2xx.
    case test = "test"
}

/// Queues notifications in the store, in the same transaction as the change they report.
enum NotificationOutbox {
    /// The `events` claim, as Apple sends it (serialized into a JSON string in the JWT).
    struct Event: Codable, Sendable {
        let type: String
        let sub: String
        let eventTime: Int64
        var email: String?
        var isPrivateEmail: String?

        enum CodingKeys: String, CodingKey {
            case type, sub, email
            case eventTime = "event_time"
            case isPrivateEmail = "is_private_email"
        }
    }

    /// Queues `type` for `app` (nothing when the app has no notification URL).
    static func enqueue(
        _ type: NotificationType,
        subject: String,
        email: String? = nil,
        isPrivateEmail: Bool? = nil,
        app: EmulatorConfiguration.App,
        appleID: String,
        now: Date,
        random: EmulatorRandom,
        in database: any SQLDatabase
    ) async throws {
        guard let url = app.notificationURL else { return }
        var event = Event(type: type.rawValue, sub: subject, eventTime: Int64((now.timeIntervalSince1970 * 1000).rounded()))
        event.email = email
        event.isPrivateEmail = isPrivateEmail.map { $0 ? "true" : "false" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let eventJSON = String(decoding: try encoder.encode(event), as: UTF8.self)
        let jti = random.hex(bytes: 16)
        try await database.raw(
            """
            INSERT INTO outbox (jti, audience, url, event_type, event, email, created_at, next_attempt_at)
            VALUES (\(bind: jti), \(bind: app.bundleID), \(bind: url), \(bind: type.rawValue), \(bind: eventJSON), \(bind: appleID),
                    \(bind: now.timeIntervalSince1970), \(bind: now.timeIntervalSince1970))
            """
        ).run()
    }
}
