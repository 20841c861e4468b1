import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The relay's rules and its storage: which recipients exist and forward, which senders a team
/// registered, delivery into the Apple ID's inbox, and the log of refusals.
struct MailRelay: Sendable {
    /// A relay address accepted for the current transaction.
    struct Recipient: Sendable, Hashable {
        let relayEmail: String
        let appleID: String
        let sources: EmailSources
    }

    /// The answer to a `RCPT TO`.
    enum RecipientVerdict: Sendable {
        case accepted(Recipient)
        case refused(SMTPReply)
    }

    let store: EmulatorStore
    let directory: ClientDirectory
    let random: EmulatorRandom
    let time: EmulatorTime
    /// Messages one relay address accepts in 24 hours.
    let dailyLimit: Int
    /// Refusals kept in the log (older ones are dropped).
    static let refusalsKept = 1000

    /// Checks a recipient: an issued relay address of an active Apple ID, forwarding on, the
    /// envelope sender registered by the team that owns the address, and the address's daily limit.
    /// A refusal is logged.
    func recipient(_ address: String, envelopeFrom: String) async throws -> RecipientVerdict {
        let relayEmail = address.lowercased()
        let directory = directory
        let dailyLimit = dailyLimit
        let now = time.now
        return try await store.transaction { database in
            let row = try await database.raw(
                """
                SELECT t.email, t.team_id, t.forwarding, a.deleted_at FROM team_users t JOIN apple_ids a ON a.email = t.email
                WHERE t.relay_email = \(bind: relayEmail)
                """
            ).first()
            guard let row, try row.decode(column: "deleted_at", as: Double?.self) == nil else {
                let reply = SMTPReply(550, "5.1.1", "<\(relayEmail)>: no such relay address was issued (recipient unknown)")
                try await Self.logRefusal(
                    reply, reason: "unknown relay address", from: envelopeFrom, to: relayEmail, appleID: nil, at: now, in: database)
                return .refused(reply)
            }
            let appleID = try row.decode(column: "email", as: String.self)
            let teamID = try row.decode(column: "team_id", as: String.self)
            guard try row.decode(column: "forwarding", as: Int.self) != 0 else {
                let reply = SMTPReply(550, "5.2.1", "<\(relayEmail)>: the owner turned email forwarding off for team \(teamID); nothing is delivered")
                try await Self.logRefusal(
                    reply, reason: "forwarding off", from: envelopeFrom, to: relayEmail, appleID: appleID, at: now, in: database)
                return .refused(reply)
            }
            let sources = try await Self.sources(teamID: teamID, directory: directory, in: database)
            guard sources.covers(envelopeFrom) else {
                let shown = envelopeFrom.isEmpty ? "<> (a bounce)" : "<\(envelopeFrom)>"
                let reply = SMTPReply(
                    550, "5.7.1", "envelope sender MAIL FROM \(shown) is not an email source of team \(teamID) (\(sources.registered))")
                try await Self.logRefusal(
                    reply, reason: "envelope sender not registered", from: envelopeFrom, to: relayEmail, appleID: appleID, at: now, in: database)
                return .refused(reply)
            }
            let today =
                try await database.raw(
                    """
                    SELECT COUNT(*) AS n FROM relayed_mail
                    WHERE relay_email = \(bind: relayEmail) AND received_at > \(bind: now.timeIntervalSince1970 - 86_400)
                    """
                ).first()?.decode(column: "n", as: Int.self) ?? 0
            guard today < dailyLimit else {
                let reply = SMTPReply(450, "4.2.1", "<\(relayEmail)> received its limit of \(dailyLimit) messages in 24 hours; try again later")
                try await Self.logRefusal(reply, reason: "daily limit", from: envelopeFrom, to: relayEmail, appleID: appleID, at: now, in: database)
                return .refused(reply)
            }
            return .accepted(Recipient(relayEmail: relayEmail, appleID: appleID, sources: sources))
        }
    }

    /// Delivers a complete message to every recipient, or to none: the header `From` must be a
    /// source of each recipient's team. Returns the reply for the end of `DATA`.
    /// Delivers `raw` to every recipient, or refuses it whole; a refusal is logged for at most the first
    /// `logged` recipients (a session's share of the refusal log).
    func deliver(_ raw: [UInt8], envelopeFrom: String, to recipients: [Recipient], loggingAtMost logged: Int) async throws -> SMTPReply {
        let content = MailContent(parsing: raw)
        let now = time.now
        let random = random
        return try await store.transaction { database in
            let headerFrom: [String]
            switch content.from {
            case .failure(let failure):
                let reply = SMTPReply(
                    550, "5.7.1", "the From header cannot be trusted (\(failure.reason)); it must name registered email sources only")
                try await Self.logRefusal(
                    reply, reason: "header From unreadable", envelopeFrom: envelopeFrom, recipients: Array(recipients.prefix(logged)), at: now,
                    in: database)
                return reply
            case .success(let addresses):
                headerFrom = addresses
            }
            for recipient in recipients {
                guard let foreign = headerFrom.first(where: { !recipient.sources.covers($0) }) else { continue }
                let reply = SMTPReply(
                    550, "5.7.1",
                    "header From <\(foreign)> is not an email source of team \(recipient.sources.teamID) (\(recipient.sources.registered))")
                try await Self.logRefusal(
                    reply, reason: "header From not registered", envelopeFrom: envelopeFrom, recipients: Array(recipients.prefix(logged)), at: now,
                    in: database)
                return reply
            }
            var ids: [String] = []
            for recipient in recipients {
                let id = random.hex(bytes: 12)
                ids.append(id)
                try await database.raw(
                    """
                    INSERT INTO relayed_mail (id, apple_id, team_id, envelope_from, header_from, relay_email, delivered_to, subject,
                        received_at, size, body, body_type, headers)
                    VALUES (\(bind: id), \(bind: recipient.appleID), \(bind: recipient.sources.teamID), \(bind: envelopeFrom),
                        \(bind: headerFrom.joined(separator: ", ")), \(bind: recipient.relayEmail), \(bind: recipient.appleID), \(bind: content.subject),
                        \(bind: now.timeIntervalSince1970), \(bind: raw.count), \(bind: content.body), \(bind: content.bodyType),
                        \(bind: content.headerText))
                    """
                ).run()
            }
            return SMTPReply(250, "2.0.0", "OK: delivered as \(ids.joined(separator: ", "))")
        }
    }

    /// Logs a refusal that happens outside a recipient check (an oversized message, for example), for
    /// at most the first `logged` recipients.
    func logRefusal(_ reply: SMTPReply, reason: String, envelopeFrom: String, recipients: [Recipient], loggingAtMost logged: Int) async throws {
        let now = time.now
        let shown = Array(recipients.prefix(logged))
        try await store.transaction { database in
            try await Self.logRefusal(reply, reason: reason, envelopeFrom: envelopeFrom, recipients: shown, at: now, in: database)
        }
    }

    /// Logs one refusal for each recipient of a transaction.
    private static func logRefusal(
        _ reply: SMTPReply, reason: String, envelopeFrom: String, recipients: [Recipient], at now: Date, in database: any SQLDatabase
    ) async throws {
        for recipient in recipients {
            try await logRefusal(
                reply, reason: reason, from: envelopeFrom, to: recipient.relayEmail, appleID: recipient.appleID, at: now, in: database)
        }
    }

    /// The email sources of every app the team owns now (an app transfer moves its sources along).
    static func sources(teamID: String, directory: ClientDirectory, in database: any SQLDatabase) async throws -> EmailSources {
        let bundleIDs = try await database.raw("SELECT bundle_id FROM app_teams WHERE team_id = \(bind: teamID) ORDER BY bundle_id").all()
            .map { try $0.decode(column: "bundle_id", as: String.self) }
        return EmailSources(teamID: teamID, entries: bundleIDs.flatMap { directory.app(bundleID: $0)?.emailSources ?? [] })
    }

    private static func logRefusal(
        _ reply: SMTPReply, reason: String, from: String, to: String, appleID: String?, at: Date, in database: any SQLDatabase
    ) async throws {
        try await database.raw(
            """
            INSERT INTO refused_mail (attempted_at, envelope_from, recipient, apple_id, reply, reason)
            VALUES (\(bind: at.timeIntervalSince1970), \(bind: from), \(bind: to), \(bind: appleID), \(bind: reply.summary), \(bind: reason))
            """
        ).run()
        // The log is for looking into recent bounces: it keeps the newest entries only.
        try await database.raw(
            "DELETE FROM refused_mail WHERE id <= (SELECT MAX(id) FROM refused_mail) - \(unsafeRaw: String(refusalsKept))"
        ).run()
    }
}
