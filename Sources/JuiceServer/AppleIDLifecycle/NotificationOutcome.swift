/// What applying a notification did.
enum NotificationOutcome: Sendable, Hashable {
    /// Applied; `sessionsEnded` sessions were ended (revocation, deletion).
    case applied(sessionsEnded: Int)
    /// Its `jti` was seen before: nothing changed.
    case duplicate
    /// Recorded, but this server has no such Apple ID or does not know the event type.
    case ignored
}
