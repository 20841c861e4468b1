import Foundation
import SQLKit

/// Juice's mail to its users, queued in `mail_outbox` inside the transaction of the change it
/// reports: a welcome when Sign in with Apple creates an account, a confirmation when an account is
/// deleted. Nothing is lost if the process stops, and nothing is sent for a change rolled back;
/// ``MailDelivery`` sends what is queued, never inside the request.
struct MailOutbox: Sendable {
    /// What a queued mail is about.
    enum Kind: String, Sendable {
        case welcome
        case accountDeleted = "account_deleted"
    }

    let composer: MailComposer
    let publicURL: String
    let random: ServerRandom

    /// An outbox writing mails from `settings.sender` that link to `publicURL`.
    init(settings: MailSettings, publicURL: String, random: ServerRandom) {
        composer = MailComposer(sender: settings.sender)
        self.publicURL = publicURL
        self.random = random
    }

    /// Queues the welcome mail for an account Sign in with Apple just created.
    func enqueueWelcome(
        to email: String, givenName: String?, isPrivateEmail: Bool, appleSubject: String, at now: Int64, on sql: any SQLDatabase
    )
        async throws
    {
        let greeting = givenName.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        var body = "Hello\(greeting.map { " \($0)" } ?? ""),\n\nWelcome to Juice! Your account is ready; you signed in with Apple."
        if isPrivateEmail {
            body += "\nYou chose Hide My Email: this mail reached you through Apple's private relay, and you can turn forwarding off at any time."
        }
        body += "\n\nOpen Juice: \(publicURL)\n\n— Juice\n"
        try await enqueue(.welcome, to: email, subject: "Welcome to Juice", body: body, appleSubject: appleSubject, at: now, on: sql)
    }

    /// Queues the confirmation that an account was deleted.
    func enqueueDeletionConfirmation(to email: String, appleSubject: String?, at now: Int64, on sql: any SQLDatabase) async throws {
        let body = """
            Hello,

            Your Juice account and its data were deleted, as you asked. If you signed in with Apple, Juice no longer \
            has access to your Apple ID. You can create a new account at any time: \(publicURL)

            — Juice

            """
        try await enqueue(
            .accountDeleted, to: email, subject: "Your Juice account was deleted", body: body, appleSubject: appleSubject, at: now, on: sql)
    }

    private func enqueue(
        _ kind: Kind, to email: String, subject: String, body: String, appleSubject: String?, at now: Int64, on sql: any SQLDatabase
    ) async throws {
        let recipient = email.trimmingCharacters(in: .whitespaces)
        // An address that cannot be written into an envelope is not queued (the change itself stands).
        guard MailSender.isAddress(recipient) else { return }
        let id = random.identifier()
        let message = composer.compose(
            to: recipient, subject: subject, body: body, date: Date(timeIntervalSince1970: TimeInterval(now)), messageID: id)
        try await sql.insert(into: "mail_outbox")
            .columns("id", "kind", "apple_subject", "recipient", "message", "status", "attempts", "next_attempt_at", "created_at")
            .values(
                SQLBind(id), SQLBind(kind.rawValue), SQLBind(appleSubject), SQLBind(recipient), SQLBind(String(decoding: message, as: UTF8.self)),
                SQLBind("pending"), SQLBind(0), SQLBind(now), SQLBind(now)
            )
            .run()
    }
}
