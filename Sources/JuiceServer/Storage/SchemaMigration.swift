import SQLKit

/// One step of the schema, applied once, in order, inside a transaction.
///
/// Steps are SQLKit builders, so the same list runs on SQLite and PostgreSQL. Later issues append
/// steps (never edit an applied one).
struct SchemaMigration: Sendable {
    /// Increasing version number.
    let version: Int
    /// What the step does.
    let name: String
    /// Applies the step.
    let apply: @Sendable (any SQLDatabase) async throws -> Void
}
