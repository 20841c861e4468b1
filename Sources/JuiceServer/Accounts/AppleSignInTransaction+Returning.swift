import Foundation
import SQLKit

extension AppleSignInTransaction {
    /// A returning Apple ID's sign-in in one statement, where the database allows it (PostgreSQL):
    /// the Apple ID's row is refreshed, the session inserted and the account read back, all or
    /// nothing, in one round trip and one commit. The general transaction takes five round trips:
    /// `BEGIN`, the update, the read, the insert, `COMMIT`.
    ///
    /// `nil` when the Apple ID is unknown (a new account, or an app transfer to re-key): nothing was
    /// written, and the caller runs the general transaction. The account's profile (the once-only
    /// name, a changed email) is for the caller to apply (``profile(_:appliedTo:)``,
    /// ``writeProfile(_:accountID:on:)``), as the general path does.
    ///
    /// Run on its own (``JuiceDatabase/autocommit(_:)``): run twice after a lost connection, the
    /// repeated session insert is refused by its primary key, so it fails closed.
    static func returningSignIn(_ signIn: AppleSignInRecord, session: SessionDraft, on sql: any SQLDatabase) async throws -> Account? {
        let now = Int64(signIn.at.timeIntervalSince1970)
        let createdAt = Int64(session.createdAt.timeIntervalSince1970)
        let expiresAt = Int64(session.expiresAt.timeIntervalSince1970)
        // The identity's columns come from the update's RETURNING: a statement's own changes are not
        // visible to its other parts, so reading apple_identities again would see the old row.
        let query: SQLQueryString =
            "WITH i AS (UPDATE apple_identities SET " + identityAssignments(signIn, at: now) + """
                     WHERE subject = \(bind: signIn.subject)
                    RETURNING account_id, subject, client_id, email, is_private_email, real_user_status, state, created_at, refresh_token),
                started AS (
                    INSERT INTO sessions (id, token_hash, account_id, method, created_at, expires_at)
                    SELECT \(bind: session.id), \(bind: session.tokenHash), i.account_id, \(bind: session.method.rawValue), \(bind: createdAt), \(bind: expiresAt)
                    FROM i
                    RETURNING account_id)
                SELECT \(unsafeRaw: AccountsTable.columns)
                FROM i
                JOIN started s ON s.account_id = i.account_id
                JOIN accounts a ON a.id = i.account_id
                """
        return try await sql.raw(query).first().map(AccountsTable.account(from:))
    }
}
