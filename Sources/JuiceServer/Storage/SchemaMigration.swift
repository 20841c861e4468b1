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

    /// Creates a step.
    init(version: Int, name: String, apply: @escaping @Sendable (any SQLDatabase) async throws -> Void) {
        self.version = version
        self.name = name
        self.apply = apply
    }
}
