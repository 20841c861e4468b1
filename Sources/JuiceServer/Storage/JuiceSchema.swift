import SQLKit

/// The server's tables.
///
/// Times are Unix seconds (`BIGINT`), booleans `SMALLINT` 0/1, ids random text: the same on SQLite
/// and PostgreSQL. Rows that belong to an account are deleted with it (`ON DELETE CASCADE`).
public enum JuiceSchema {
    /// Every schema step, in order.
    public static let migrations: [SchemaMigration] = [
        SchemaMigration(version: 1, name: "accounts, identities, passwords, sessions, sign-in requests, used codes") { sql in
            try await sql.create(table: "accounts")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("created_at", type: .bigint, .notNull)
                .column("given_name", type: .text)
                .column("family_name", type: .text)
                .column("email", type: .text)
                .column("is_private_email", type: .smallint, .notNull, .default(0))
                .run()
            try await sql.create(table: "apple_identities")
                .column("subject", type: .text, .primaryKey(autoIncrement: false))
                .column("account_id", type: .text, .notNull, .unique, .references("accounts", "id", onDelete: .cascade))
                .column("client_id", type: .text, .notNull)
                .column("email", type: .text)
                .column("is_private_email", type: .smallint)
                .column("real_user_status", type: .smallint)
                .column("refresh_token", type: .text)
                .column("state", type: .text, .notNull)
                .column("last_checked_at", type: .bigint)
                .column("created_at", type: .bigint, .notNull)
                .column("updated_at", type: .bigint, .notNull)
                .run()
            try await sql.create(table: "password_credentials")
                .column("account_id", type: .text, .primaryKey(autoIncrement: false), .references("accounts", "id", onDelete: .cascade))
                .column("username", type: .text, .notNull, .unique)
                .column("password_hash", type: .text, .notNull)
                .column("created_at", type: .bigint, .notNull)
                .run()
            try await sql.create(table: "sessions")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("token_hash", type: .text, .notNull, .unique)
                .column("account_id", type: .text, .notNull, .references("accounts", "id", onDelete: .cascade))
                .column("method", type: .text, .notNull)
                .column("created_at", type: .bigint, .notNull)
                .column("expires_at", type: .bigint, .notNull)
                .run()
            try await sql.create(index: "sessions_account_id").on("sessions").column("account_id").run()
            try await sql.create(index: "sessions_expires_at").on("sessions").column("expires_at").run()
            try await sql.create(table: "auth_requests")
                .column("state", type: .text, .primaryKey(autoIncrement: false))
                .column("nonce", type: .text, .notNull)
                .column("purpose", type: .text, .notNull)
                .column("link_account_id", type: .text)
                .column("replaces_session_id", type: .text)
                .column("created_at", type: .bigint, .notNull)
                .column("expires_at", type: .bigint, .notNull)
                .run()
            try await sql.create(index: "auth_requests_expires_at").on("auth_requests").column("expires_at").run()
            try await sql.create(table: "used_codes")
                .column("code_hash", type: .text, .primaryKey(autoIncrement: false))
                .column("used_at", type: .bigint, .notNull)
                .run()
            try await sql.create(index: "used_codes_used_at").on("used_codes").column("used_at").run()
        }
    ]
}
