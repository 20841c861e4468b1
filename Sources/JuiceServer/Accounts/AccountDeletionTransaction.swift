import Foundation
import SQLKit

/// An account deletion's writes, in one transaction: the account with its identities, credentials and
/// sessions goes; the revocation Apple is owed and the confirmation mail are queued.
struct AccountDeletionTransaction {
    let database: any JuiceDatabase
    let random: ServerRandom
    /// Queues the deletion confirmation in the same transaction; `nil` sends none.
    let mail: MailOutbox?

    /// Deletes an account with its identities, credentials and sessions; returns what Apple must be told.
    ///
    /// A stored refresh token is queued for revocation (`pending_revocations`, still sealed) in the
    /// same transaction, so the revocation survives a crash or an unreachable Apple.
    func run(accountID id: String, at: Date) async throws -> DeletedAccount? {
        let revocationID = random.identifier()
        let now = Int64(at.timeIntervalSince1970)
        let mail = mail
        return try await database.transaction { sql -> DeletedAccount? in
            guard let account = try await sql.select().columns("id", "email").from("accounts").where("id", .equal, id).first() else { return nil }
            let identity = try await sql.select().columns("subject", "client_id", "refresh_token").from("apple_identities")
                .where("account_id", .equal, id).first()
            // Explicit deletes keep this independent of the database's foreign-key enforcement.
            try await SessionsTable.endAll(accountID: id, on: sql)
            try await sql.delete(from: "password_credentials").where("account_id", .equal, id).run()
            try await sql.delete(from: "apple_identities").where("account_id", .equal, id).run()
            try await sql.delete(from: "accounts").where("id", .equal, id).run()
            let clientID = try identity?.decode(column: "client_id", as: String.self)
            let sealed = try identity.flatMap { try $0.decode(column: "refresh_token", as: String?.self) }
            let subject = try identity?.decode(column: "subject", as: String.self)
            if let mail, let email = try account.decode(column: "email", as: String?.self), !email.trimmed.isEmpty {
                try await mail.enqueueDeletionConfirmation(to: email, appleSubject: subject, at: now, on: sql)
            }
            var queued: String?
            if let clientID, let sealed, let subject {
                try await sql.insert(into: "pending_revocations")
                    .columns("id", "subject", "client_id", "sealed_token", "attempts", "next_attempt_at", "created_at")
                    .values(SQLBind(revocationID), SQLBind(subject), SQLBind(clientID), SQLBind(sealed), SQLBind(0), SQLBind(now), SQLBind(now))
                    .run()
                queued = revocationID
            }
            return DeletedAccount(
                accountID: id, appleClientID: clientID, sealedRefreshToken: sealed, appleSubject: subject, pendingRevocationID: queued
            )
        }
    }
}
