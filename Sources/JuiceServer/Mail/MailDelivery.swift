import AppleSignIn
import Foundation
import Logging
import SQLKit

/// Sends what ``MailOutbox`` queued, through SMTP.
///
/// Each due mail is claimed first (so two instances never send the same one), then: a mail to an
/// Apple ID whose relay sent `email-disabled` is not sent (`suppressed`); a `5xx` is a permanent
/// refusal (`refused`); a `4xx`, a lost connection or a timeout is retried with exponential backoff
/// until ``MailSettings/maximumAttempts`` (`failed`). Counted in `juice_mail_total{outcome}`.
struct MailDelivery: Sendable {
    /// What became of one attempt.
    enum Outcome: String, Sendable {
        case sent, refused, retried, failed, suppressed
    }

    let database: any JuiceDatabase
    let settings: MailSettings
    let client: SMTPClient
    let time: TimeSource
    let metrics: ServerMetrics

    /// How long a claimed mail is left to the instance that claimed it before another may try.
    static let claimLease: Int64 = 300

    init(database: any JuiceDatabase, settings: MailSettings, heloName: String, time: TimeSource, metrics: ServerMetrics) {
        self.database = database
        self.settings = settings
        client = SMTPClient(host: settings.smtpHost, port: settings.smtpPort, heloName: heloName, timeout: settings.timeout)
        self.time = time
        self.metrics = metrics
    }

    /// Sends every mail that is due; returns what happened to each.
    @discardableResult
    func deliverDue(logger: Logger) async throws -> [Outcome] {
        var outcomes: [Outcome] = []
        for entry in try await claimDue(limit: 50) {
            if Task.isCancelled { break }
            let outcome = try await deliver(entry, logger: logger)
            metrics.mail(outcome: outcome.rawValue)
            outcomes.append(outcome)
        }
        return outcomes
    }

    struct Entry: Sendable {
        let id: String
        let kind: String
        let appleSubject: String?
        let recipient: String
        let message: String
        let attempts: Int
    }

    private func claimDue(limit: Int) async throws -> [Entry] {
        let now = Int64(time.now.timeIntervalSince1970)
        return try await database.transaction { sql in
            let query: SQLQueryString = """
                SELECT id, kind, apple_subject, recipient, message, attempts, next_attempt_at FROM mail_outbox
                WHERE status = 'pending' AND next_attempt_at <= \(bind: now) ORDER BY next_attempt_at LIMIT \(unsafeRaw: String(limit))
                """
            var claimed: [Entry] = []
            for row in try await sql.raw(query).all() {
                let id = try row.decode(column: "id", as: String.self)
                let due = try row.decode(column: "next_attempt_at", as: Int64.self)
                let taken = try await sql.update("mail_outbox").set("next_attempt_at", to: now + Self.claimLease)
                    .where("id", .equal, id).where("next_attempt_at", .equal, due).where("status", .equal, "pending")
                    .returning("id").all()
                guard !taken.isEmpty else { continue }
                claimed.append(
                    Entry(
                        id: id, kind: try row.decode(column: "kind", as: String.self),
                        appleSubject: try row.decode(column: "apple_subject", as: String?.self),
                        recipient: try row.decode(column: "recipient", as: String.self), message: try row.decode(column: "message", as: String.self),
                        attempts: Int(try row.decode(column: "attempts", as: Int64.self))
                    ))
            }
            return claimed
        }
    }

    private func deliver(_ entry: Entry, logger: Logger) async throws -> Outcome {
        var metadata: Logger.Metadata = ["mail": "\(entry.id)", "kind": "\(entry.kind)"]
        if let subject = entry.appleSubject, try await isSuppressed(subject) {
            try await finish(entry, status: "suppressed", error: "email-disabled")
            logger.info("mail not sent: the Apple ID's relay is disabled (email-disabled)", metadata: metadata)
            return .suppressed
        }
        do {
            try await client.send(Array(entry.message.utf8), from: settings.sender.address, to: entry.recipient)
        } catch {
            metadata["reply"] = "\(error.reason)"
            if error.isPermanent {
                try await finish(entry, status: "refused", error: error.reason)
                logger.warning("mail refused by the SMTP server", metadata: metadata)
                return .refused
            }
            let attempts = entry.attempts + 1
            guard attempts < settings.maximumAttempts else {
                try await finish(entry, status: "failed", error: error.reason, attempts: attempts)
                logger.error("mail given up after repeated failures", metadata: metadata)
                return .failed
            }
            let wait = retryBackoff(afterAttempts: attempts, initial: settings.initialBackoff, maximum: settings.maximumBackoff)
            let next = Int64(time.now.addingTimeInterval(wait).timeIntervalSince1970)
            try await database.transaction { sql in
                try await sql.update("mail_outbox").set("attempts", to: attempts).set("next_attempt_at", to: next)
                    .set("last_error", to: String(error.reason.prefix(500))).where("id", .equal, entry.id).run()
            }
            logger.warning("mail delivery failed; will retry", metadata: metadata.merging(["attempts": "\(attempts)"]) { $1 })
            return .retried
        }
        try await finish(entry, status: "sent", error: nil, attempts: entry.attempts + 1)
        logger.info("mail sent", metadata: metadata)
        return .sent
    }

    private func isSuppressed(_ subject: String) async throws -> Bool {
        try await database.read { sql in
            try await sql.select().column("apple_subject").from("mail_suppressions").where("apple_subject", .equal, subject).first() != nil
        }
    }

    private func finish(_ entry: Entry, status: String, error: String?, attempts: Int? = nil) async throws {
        let now = Int64(time.now.timeIntervalSince1970)
        try await database.transaction { sql in
            var update = sql.update("mail_outbox").set("status", to: status).set("finished_at", to: now)
            if let error { update = update.set("last_error", to: String(error.prefix(500))) }
            if let attempts { update = update.set("attempts", to: attempts) }
            try await update.where("id", .equal, entry.id).run()
        }
    }
}
