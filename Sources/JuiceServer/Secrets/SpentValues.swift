import SQLKit

/// The statements on `spent_values`, the table that makes minted values, codes and challenges single
/// use: a value's key inserted under a unique constraint is spent, and of two inserts of one key, on
/// any instance, at most one succeeds. Run alone (``AuthorizationStore/spend(_:at:)``: a native nonce
/// and an Apple code, before the code goes to Apple) or as the first write of a passkey sign-in's
/// transaction (``PasskeySignInTransaction/run(_:)``), so that a sign-in that fails later leaves it unspent.
enum SpentValues {
    /// Spends `keys` in one statement; returns those that had not been spent before (each is refused alone).
    static func spend(_ keys: [String], at seconds: Int64, on sql: any SQLDatabase) async throws -> Set<String> {
        guard !keys.isEmpty else { return [] }
        let rows = keys.map { key -> SQLQueryString in "(\(bind: key), \(bind: seconds))" }.joined(separator: ", ")
        // SQL text, not a builder: this runs on every sign-in (see docs/performance.md).
        let inserted = try await sql.raw(
            "INSERT INTO spent_values (value_key, spent_at) VALUES " + rows + " ON CONFLICT (value_key) DO NOTHING RETURNING value_key"
        ).all()
        return Set(try inserted.map { try $0.decode(column: "value_key", as: String.self) })
    }
}
