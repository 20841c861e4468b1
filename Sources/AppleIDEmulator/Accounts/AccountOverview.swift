/// What the account portal shows.
struct AccountOverview: Sendable {
    struct AppEntry: Sendable {
        let grant: Grant
        let teamID: String
        let relay: TeamUser?
    }

    let apps: [AppEntry]
    let notifications: [OutboxEntry]
    /// Every delivery attempt of those notifications, oldest first.
    let attempts: [NotificationDeliveryLog]
}
