import AppleSignIn
import Foundation
import SQLKit

/// The statements on `accounts` (read with its Apple ID from `apple_identities`) that more than one use case's
/// transaction runs: a password, passkey or Apple sign-up inserts its account, and every sign-in reads the
/// account back, through these, in their own transactions.
enum AccountsTable {
    /// Inserts a new account with `username` (normalized; `nil` for none).
    /// - Throws: ``AccountStoreError/usernameTaken`` when another account has it (checked here; a
    ///   concurrent insert loses on the unique index, and PostgreSQL's retry then finds it taken).
    static func insert(id: String, username: String?, at now: Int64, on sql: any SQLDatabase) async throws {
        if let username {
            let taken = try await sql.select().column("id").from("accounts").where("username", .equal, username).first()
            guard taken == nil else { throw AccountStoreError.usernameTaken }
        }
        try await sql.insert(into: "accounts").columns("id", "created_at", "is_private_email", "username")
            .values(SQLBind(id), SQLBind(now), SQLBind(0), SQLBind(username)).run()
    }

    /// Reads one account with its Apple ID and username.
    static func load(where column: String, equals value: String, on sql: any SQLDatabase) async throws -> Account? {
        let filter: SQLQueryString = column == "a.id" ? "a.id = \(bind: value)" : "i.subject = \(bind: value)"
        let query: SQLQueryString = """
            SELECT \(unsafeRaw: columns)
            FROM accounts a
            LEFT JOIN apple_identities i ON i.account_id = a.id
            WHERE \(filter)
            """
        return try await sql.raw(query).first().map(account(from:))
    }

    /// The columns of an account as ``account(from:)`` reads them, from `accounts a`,
    /// `apple_identities i`.
    static let columns = """
        a.id, a.created_at, a.given_name, a.family_name, a.email, a.is_private_email, a.username,
        i.subject, i.client_id, i.email AS apple_email, i.is_private_email AS apple_private_email, i.real_user_status,
        i.state, i.created_at AS apple_created_at, CASE WHEN i.refresh_token IS NULL THEN 0 ELSE 1 END AS has_refresh_token
        """

    /// An account from a row with ``columns``.
    static func account(from row: any SQLRow) throws -> Account {
        var apple: AppleIdentity?
        if let subject = try row.decode(column: "subject", as: String?.self) {
            apple = AppleIdentity(
                subject: subject,
                clientID: try row.decode(column: "client_id", as: String.self),
                email: try row.decode(column: "apple_email", as: String?.self),
                isPrivateEmail: try row.decode(column: "apple_private_email", as: Int?.self).map { $0 != 0 },
                realUserStatus: try row.decode(column: "real_user_status", as: Int?.self).flatMap(RealUserStatus.init(rawValue:)),
                status: AppleIdentityStatus(stored: try row.decode(column: "state", as: String.self)),
                hasRefreshToken: try row.decode(column: "has_refresh_token", as: Int.self) != 0,
                createdAt: Date(timeIntervalSince1970: TimeInterval(try row.decode(column: "apple_created_at", as: Int64.self)))
            )
        }
        return Account(
            id: try row.decode(column: "id", as: String.self),
            createdAt: Date(timeIntervalSince1970: TimeInterval(try row.decode(column: "created_at", as: Int64.self))),
            givenName: try row.decode(column: "given_name", as: String?.self),
            familyName: try row.decode(column: "family_name", as: String?.self),
            email: try row.decode(column: "email", as: String?.self),
            isPrivateEmail: try row.decode(column: "is_private_email", as: Int.self) != 0,
            username: try row.decode(column: "username", as: String?.self),
            apple: apple
        )
    }
}
