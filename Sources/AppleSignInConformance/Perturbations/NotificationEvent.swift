import AppleIDEmulator

/// The notification's event type (`email-enabled`, `consent-revoked`, `account-delete`).
struct NotificationEvent: Perturbation {
    let type: String

    func apply(to plan: inout SignInPlan) {
        plan.notificationType = type
    }
}
