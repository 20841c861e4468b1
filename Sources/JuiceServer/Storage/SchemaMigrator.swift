import Foundation
import Logging
import SQLKit

/// Brings a database's schema up to date with ``JuiceSchema/migrations``.
///
/// Applied versions are recorded in `juice_schema_migrations`; each step and its record are one
/// transaction, so a step is applied completely or not at all.
struct SchemaMigrator: Sendable {
    /// The steps, by increasing version.
    let migrations: [SchemaMigration]

    /// Creates a migrator for `migrations` (the server's by default).
    init(migrations: [SchemaMigration] = JuiceSchema.migrations) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// Applies every step not yet applied; returns the versions applied now.
    @discardableResult
    func migrate(_ database: any JuiceDatabase, now: Date, logger: Logger) async throws -> [Int] {
        let migrations = self.migrations
        // Instances starting together take turns; each step also re-checks its version inside its
        // own transaction, so a step another instance applied meanwhile is skipped.
        return try await database.withMigrationLock {
            try await database.transaction { sql in
                try await sql.create(table: "juice_schema_migrations").ifNotExists()
                    .column("version", type: .bigint, .primaryKey(autoIncrement: false))
                    .column("name", type: .text, .notNull)
                    .column("applied_at", type: .bigint, .notNull)
                    .run()
            }
            let applied = try await database.read { sql in
                try await sql.select().column("version").from("juice_schema_migrations").all().map { try $0.decode(column: "version", as: Int.self) }
            }
            var done: [Int] = []
            for migration in migrations where !applied.contains(migration.version) {
                let appliedNow = try await database.transaction { sql in
                    let present = try await sql.select().column("version").from("juice_schema_migrations")
                        .where("version", .equal, SQLBind(migration.version)).first()
                    guard present == nil else { return false }
                    try await migration.apply(sql)
                    try await sql.insert(into: "juice_schema_migrations")
                        .columns("version", "name", "applied_at")
                        .values(SQLBind(migration.version), SQLBind(migration.name), SQLBind(Int64(now.timeIntervalSince1970)))
                        .run()
                    return true
                }
                guard appliedNow else { continue }
                logger.info("database migrated", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
                done.append(migration.version)
            }
            return done
        }
    }
}
