import SQLKit

/// The statements on `spent_values`, the table that makes minted values, codes and challenges single
/// use: a value's key inserted under a unique constraint is spent, and of two inserts of one key, on
/// any instance, at most one succeeds. Run alone (``AuthorizationStore/spend(_:at:)``) or as the first
/// write of a sign-in's transaction, so that a sign-in that fails later leaves its values unspent.
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

    /// Spends all of `keys` or throws ``AlreadySpent`` naming those spent before; inside a
    /// transaction, the throw rolls back the others too.
    static func spendAll(_ keys: [String], at seconds: Int64, on sql: any SQLDatabase) async throws {
        let fresh = try await spend(keys, at: seconds, on: sql)
        let refused = Set(keys).subtracting(fresh)
        guard refused.isEmpty else { throw AlreadySpent(keys: refused) }
    }

    /// Those of `keys` that are spent already: a read, for refusing a replay before any work is done.
    /// Only a hint: the spend in the sign-in's transaction is what decides.
    static func spent(among keys: [String], on sql: any SQLDatabase) async throws -> Set<String> {
        guard !keys.isEmpty else { return [] }
        let list = keys.map { key -> SQLQueryString in "\(bind: key)" }.joined(separator: ", ")
        let rows = try await sql.raw("SELECT value_key FROM spent_values WHERE value_key IN (" + list + ")").all()
        return Set(try rows.map { try $0.decode(column: "value_key", as: String.self) })
    }
}
