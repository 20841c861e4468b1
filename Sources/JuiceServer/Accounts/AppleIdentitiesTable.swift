import SQLKit

/// The statements on `apple_identities` that more than one use case's transaction runs: an app transfer's
/// re-keying, done by the transfer notification and by the first sign-in under the new team.
enum AppleIdentitiesTable {
    /// Re-keys the Apple ID an app transfer renamed: the row whose stored `transfer_subject` (from the
    /// sending team's migration step) or `subject` equals `transferSubject` takes the new `sub`, and the
    /// old `sub` is recorded as transferred. Returns the row as it was (`subject`, `account_id`), or `nil`.
    static func rekeyTransferred(
        from transferSubject: String, to subject: String, at now: Int64, on sql: any SQLDatabase
    ) async throws
        -> (any SQLRow)?
    {
        let query: SQLQueryString = """
            SELECT subject, account_id FROM apple_identities
            WHERE transfer_subject = \(bind: transferSubject) OR subject = \(bind: transferSubject)
            """
        guard let row = try await sql.raw(query).first() else { return nil }
        let oldSubject = try row.decode(column: "subject", as: String.self)
        // The old refresh token was sealed for the old sub (and belongs to the old team): it is dropped.
        try await sql.update("apple_identities")
            .set("subject", to: subject).set(SQLColumn("transfer_subject"), to: SQLLiteral.null).set(SQLColumn("refresh_token"), to: SQLLiteral.null)
            .set("updated_at", to: now)
            .where("subject", .equal, oldSubject).run()
        try await sql.insert(into: "transferred_subjects").columns("old_subject", "new_subject", "transferred_at")
            .values(SQLBind(oldSubject), SQLBind(subject), SQLBind(now))
            .onConflict(with: ["old_subject"]) { $0.set("new_subject", to: subject).set("transferred_at", to: now) }
            .run()
        return row
    }
}
