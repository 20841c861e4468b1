/// The emulator's tables. Secrets (codes, tokens, session ids) are stored only as SHA-256 digests.
enum EmulatorSchema {
    static let statements: [String] = [
        """
        CREATE TABLE IF NOT EXISTS signing_keys (
            kid TEXT PRIMARY KEY, private_pem TEXT NOT NULL, role TEXT NOT NULL,
            created_at REAL NOT NULL, retire_at REAL)
        """,
        """
        CREATE TABLE IF NOT EXISTS apple_ids (
            email TEXT PRIMARY KEY, deleted_at REAL)
        """,
        """
        CREATE TABLE IF NOT EXISTS team_users (
            email TEXT NOT NULL, team_id TEXT NOT NULL, sub TEXT NOT NULL UNIQUE,
            relay_email TEXT NOT NULL UNIQUE, forwarding INTEGER NOT NULL DEFAULT 1,
            PRIMARY KEY (email, team_id))
        """,
        """
        CREATE TABLE IF NOT EXISTS grants (
            email TEXT NOT NULL, bundle_id TEXT NOT NULL, first_name TEXT NOT NULL, last_name TEXT NOT NULL,
            email_choice TEXT NOT NULL, created_at REAL NOT NULL,
            PRIMARY KEY (email, bundle_id))
        """,
        """
        CREATE TABLE IF NOT EXISTS codes (
            code_hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, redirect_uri TEXT, email TEXT NOT NULL,
            bundle_id TEXT NOT NULL, scopes TEXT NOT NULL, nonce TEXT, auth_time REAL NOT NULL,
            device INTEGER NOT NULL, expires_at REAL NOT NULL, used_at REAL)
        """,
        """
        CREATE TABLE IF NOT EXISTS tokens (
            token_hash TEXT PRIMARY KEY, kind TEXT NOT NULL, client_id TEXT NOT NULL, email TEXT,
            bundle_id TEXT NOT NULL, team_id TEXT NOT NULL, scopes TEXT NOT NULL, auth_time REAL,
            device INTEGER NOT NULL DEFAULT 0, created_at REAL NOT NULL, expires_at REAL, revoked_at REAL)
        """,
        "CREATE INDEX IF NOT EXISTS tokens_by_user ON tokens (email, bundle_id)",
        """
        CREATE TABLE IF NOT EXISTS sessions (
            id_hash TEXT PRIMARY KEY, purpose TEXT NOT NULL, email TEXT NOT NULL, client_id TEXT,
            csrf TEXT NOT NULL, expires_at REAL NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS app_teams (
            bundle_id TEXT PRIMARY KEY, team_id TEXT NOT NULL, previous_team_id TEXT, transferred_at REAL)
        """,
        """
        CREATE TABLE IF NOT EXISTS transfer_subs (
            transfer_sub TEXT PRIMARY KEY, email TEXT NOT NULL, from_team TEXT NOT NULL, to_team TEXT NOT NULL,
            created_at REAL NOT NULL, UNIQUE (email, from_team, to_team))
        """,
        """
        CREATE TABLE IF NOT EXISTS outbox (
            id INTEGER PRIMARY KEY AUTOINCREMENT, jti TEXT NOT NULL UNIQUE, audience TEXT NOT NULL, url TEXT NOT NULL,
            event_type TEXT NOT NULL, event TEXT NOT NULL, email TEXT NOT NULL, created_at REAL NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at REAL NOT NULL, delivered_at REAL, failed_at REAL,
            last_result TEXT)
        """,
        "CREATE INDEX IF NOT EXISTS outbox_due ON outbox (delivered_at, failed_at, next_attempt_at)",
        // The private email relay: what it delivered (the Apple ID's inbox) and what it refused, and why.
        """
        CREATE TABLE IF NOT EXISTS relayed_mail (
            id TEXT PRIMARY KEY, apple_id TEXT NOT NULL, team_id TEXT NOT NULL, envelope_from TEXT NOT NULL,
            header_from TEXT NOT NULL, relay_email TEXT NOT NULL, delivered_to TEXT NOT NULL, subject TEXT NOT NULL,
            received_at REAL NOT NULL, size INTEGER NOT NULL, body TEXT NOT NULL, body_type TEXT NOT NULL,
            headers TEXT NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS relayed_mail_by_apple_id ON relayed_mail (apple_id, received_at)",
        """
        CREATE TABLE IF NOT EXISTS refused_mail (
            id INTEGER PRIMARY KEY AUTOINCREMENT, attempted_at REAL NOT NULL, envelope_from TEXT NOT NULL,
            recipient TEXT NOT NULL, apple_id TEXT, reply TEXT NOT NULL, reason TEXT NOT NULL)
        """,
        // Work & School (managed) accounts, written from the configuration at start, and the organization's
        // switch per app (seeded from `blocked_apps`, then switched by the portal or the admin API).
        """
        CREATE TABLE IF NOT EXISTS managed_accounts (
            email TEXT PRIMARY KEY, organization TEXT NOT NULL, work_email TEXT)
        """,
        """
        CREATE TABLE IF NOT EXISTS organization_blocks (
            email TEXT NOT NULL, bundle_id TEXT NOT NULL, blocked INTEGER NOT NULL, PRIMARY KEY (email, bundle_id))
        """,
        // Every delivery attempt of a server-to-server notification: when, where, the HTTP status or the
        // connection error, and when the next attempt is due (none once delivered or given up).
        """
        CREATE TABLE IF NOT EXISTS notification_attempts (
            id INTEGER PRIMARY KEY AUTOINCREMENT, outbox_id INTEGER NOT NULL, attempted_at REAL NOT NULL, url TEXT NOT NULL,
            http_status INTEGER, error TEXT, next_attempt_at REAL)
        """,
        "CREATE INDEX IF NOT EXISTS notification_attempts_by_outbox ON notification_attempts (outbox_id, id)",
    ]
}
