/// `drop_notifications`: a notification to the app is never sent; its attempt is logged with
/// ``reason`` and it is given up at once, as one Apple never delivers.
enum DroppedNotification {
    /// The error the delivery log shows for a dropped notification.
    static let reason = "dropped (failure injection: drop_notifications)"

    /// Whether the notification to `audience` (a bundle id) is dropped; each dropped notification counts one.
    static func isDropped(audience: String, failures: FailureInjection) -> Bool {
        failures.take([.dropNotifications], clientID: audience) != nil
    }
}
