import SQLKit

/// The server's tables.
///
/// Times are Unix seconds (`BIGINT`), booleans `SMALLINT` 0/1, ids random text: the same on SQLite
/// and PostgreSQL. Rows that belong to an account are deleted with it (`ON DELETE CASCADE`).
enum JuiceSchema {
    /// Every schema step, in order.
    static let migrations: [SchemaMigration] = [
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
        },
        SchemaMigration(version: 2, name: "native nonces, relay targets, notifications seen, pending revocations, app transfer") { sql in
            // One column per ALTER: SQLite adds a single column per statement.
            try await sql.raw("ALTER TABLE auth_requests ADD COLUMN relay_redirect_uri TEXT").run()
            try await sql.raw("ALTER TABLE auth_requests ADD COLUMN relay_state TEXT").run()
            try await sql.raw("ALTER TABLE apple_identities ADD COLUMN email_forwarding SMALLINT").run()
            try await sql.raw("ALTER TABLE apple_identities ADD COLUMN transfer_subject TEXT").run()
            try await sql.create(index: "apple_identities_last_checked_at").on("apple_identities").column("last_checked_at").run()
            try await sql.create(table: "api_nonces")
                .column("nonce_hash", type: .text, .primaryKey(autoIncrement: false))
                .column("created_at", type: .bigint, .notNull)
                .column("expires_at", type: .bigint, .notNull)
                .run()
            try await sql.create(index: "api_nonces_expires_at").on("api_nonces").column("expires_at").run()
            try await sql.create(table: "notifications_seen")
                .column("jti", type: .text, .primaryKey(autoIncrement: false))
                .column("event_type", type: .text, .notNull)
                .column("received_at", type: .bigint, .notNull)
                .run()
            try await sql.create(table: "pending_revocations")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("subject", type: .text, .notNull)
                .column("client_id", type: .text, .notNull)
                .column("sealed_token", type: .text, .notNull)
                .column("attempts", type: .bigint, .notNull, .default(0))
                .column("next_attempt_at", type: .bigint, .notNull)
                .column("last_error", type: .text)
                .column("created_at", type: .bigint, .notNull)
                .run()
            try await sql.create(index: "pending_revocations_next_attempt_at").on("pending_revocations").column("next_attempt_at").run()
            try await sql.create(table: "transferred_subjects")
                .column("old_subject", type: .text, .primaryKey(autoIncrement: false))
                .column("new_subject", type: .text, .notNull)
                .column("transferred_at", type: .bigint, .notNull)
                .run()
        },
        SchemaMigration(version: 3, name: "mail outbox and mail suppressions (email-disabled)") { sql in
            try await sql.create(table: "mail_outbox")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("kind", type: .text, .notNull)
                .column("apple_subject", type: .text)
                .column("recipient", type: .text, .notNull)
                .column("message", type: .text, .notNull)
                .column("status", type: .text, .notNull)
                .column("attempts", type: .bigint, .notNull, .default(0))
                .column("next_attempt_at", type: .bigint, .notNull)
                .column("last_error", type: .text)
                .column("created_at", type: .bigint, .notNull)
                .column("finished_at", type: .bigint)
                .run()
            try await sql.create(index: "mail_outbox_due").on("mail_outbox").column("status").column("next_attempt_at").run()
            try await sql.create(table: "mail_suppressions")
                .column("apple_subject", type: .text, .primaryKey(autoIncrement: false))
                .column("since", type: .bigint, .notNull)
                .run()
        },
        SchemaMigration(version: 4, name: "sessions: last seen") { sql in
            try await sql.raw("ALTER TABLE sessions ADD COLUMN last_seen_at BIGINT").run()
        },
        SchemaMigration(version: 5, name: "spent values: codes and native nonces in one table; nonces no longer stored when issued") { sql in
            // Native nonces carry their own expiry and tag (NativeNonces): they are written only when
            // spent, next to the codes, so the code table is renamed for what it now holds.
            try await sql.raw("ALTER TABLE used_codes RENAME TO spent_values").run()
            try await sql.raw("ALTER TABLE spent_values RENAME COLUMN code_hash TO value_key").run()
            try await sql.raw("ALTER TABLE spent_values RENAME COLUMN used_at TO spent_at").run()
            try await sql.raw("DROP INDEX used_codes_used_at").run()
            try await sql.create(index: "spent_values_spent_at").on("spent_values").column("spent_at").run()
            try await sql.raw("DROP TABLE api_nonces").run()
        },
        SchemaMigration(version: 6, name: "passkeys: credentials, user handles, challenges") { sql in
            // A WebAuthn user handle per account: random, never the account id, so that an
            // authenticator's stored user.id says nothing about the account.
            try await sql.create(table: "passkey_users")
                .column("account_id", type: .text, .primaryKey(autoIncrement: false), .references("accounts", "id", onDelete: .cascade))
                .column("user_handle", type: .text, .notNull, .unique)
                .run()
            try await sql.create(table: "passkey_credentials")
                .column("credential_id", type: .text, .primaryKey(autoIncrement: false))
                .column("account_id", type: .text, .notNull, .references("accounts", "id", onDelete: .cascade))
                .column("user_handle", type: .text, .notNull)
                .column("public_key", type: .text, .notNull)
                .column("algorithm", type: .bigint, .notNull)
                .column("sign_count", type: .bigint, .notNull)
                .column("transports", type: .text, .notNull, .default(""))
                .column("backup_eligible", type: .smallint, .notNull)
                .column("backed_up", type: .smallint, .notNull)
                .column("name", type: .text, .notNull)
                .column("created_at", type: .bigint, .notNull)
                .column("last_used_at", type: .bigint)
                .run()
            try await sql.create(index: "passkey_credentials_account_id").on("passkey_credentials").column("account_id").run()
            // Single-use challenges, keyed by the challenge itself (base64url): a finishing request
            // takes its row out with one DELETE … RETURNING, on whichever instance it reaches.
            try await sql.create(table: "passkey_challenges")
                .column("challenge", type: .text, .primaryKey(autoIncrement: false))
                .column("purpose", type: .text, .notNull)
                .column("account_id", type: .text, .references("accounts", "id", onDelete: .cascade))
                .column("created_at", type: .bigint, .notNull)
                .column("expires_at", type: .bigint, .notNull)
                .run()
            try await sql.create(index: "passkey_challenges_expires_at").on("passkey_challenges").column("expires_at").run()
        },
        SchemaMigration(version: 7, name: "usernames: one unique home in accounts (an account may have one without a password)") { sql in
            // A passkey-first account has a username and no password, so the name moves from
            // password_credentials (where it was NOT NULL UNIQUE) to accounts, unique where present
            // (Apple-only accounts have none: NULLs never collide, on SQLite and PostgreSQL alike).
            try await sql.raw("ALTER TABLE accounts ADD COLUMN username TEXT").run()
            try await sql.raw(
                "UPDATE accounts SET username = (SELECT p.username FROM password_credentials p WHERE p.account_id = accounts.id)"
            ).run()
            try await sql.create(index: "accounts_username").unique().on("accounts").column("username").run()
            // SQLite cannot drop a UNIQUE column, so the table is rebuilt (the same on PostgreSQL):
            // account id, password hash (NOT NULL) and its time; no row means no password.
            try await sql.create(table: "password_credentials_v7")
                .column("account_id", type: .text, .primaryKey(autoIncrement: false), .references("accounts", "id", onDelete: .cascade))
                .column("password_hash", type: .text, .notNull)
                .column("created_at", type: .bigint, .notNull)
                .run()
            try await sql.raw(
                "INSERT INTO password_credentials_v7 (account_id, password_hash, created_at) SELECT account_id, password_hash, created_at FROM password_credentials"
            ).run()
            try await sql.raw("DROP TABLE password_credentials").run()
            try await sql.raw("ALTER TABLE password_credentials_v7 RENAME TO password_credentials").run()
        },
        SchemaMigration(version: 8, name: "passkeys: the authenticator's AAGUID (its provider's name)") { sql in
            // The AAGUID of the registration's attested credential data, as text (8-4-4-4-12 hex);
            // NULL for the passkeys registered before it was kept (shown as "Passkey").
            try await sql.raw("ALTER TABLE passkey_credentials ADD COLUMN aaguid TEXT").run()
        },
        SchemaMigration(version: 9, name: "passkeys: automatic upgrades (conditional create) bound to their session, and recorded") { sql in
            // The session a conditional registration's challenge was issued to (only it may finish it),
            // and whether a passkey came by an automatic upgrade (possibly without user presence).
            try await sql.raw("ALTER TABLE passkey_challenges ADD COLUMN session_id TEXT").run()
            try await sql.raw("ALTER TABLE passkey_credentials ADD COLUMN automatic SMALLINT NOT NULL DEFAULT 0").run()
        },
    ]
}
