import Foundation
import Hummingbird
import SQLKit

/// ``AccountSecurityStore`` on the `password_credentials` and `sessions` tables.
public struct SQLAccountSecurityStore: AccountSecurityStore {
    let database: any JuiceDatabase

    public init(database: any JuiceDatabase) {
        self.database = database
    }

    public func passwordCredential(accountID: String) async throws -> PasswordCredential? {
        try await database.read { sql in
            try await sql.select().columns("account_id", "username", "password_hash").from("password_credentials")
                .where("account_id", .equal, accountID).first()
                .map {
                    PasswordCredential(
                        accountID: try $0.decode(column: "account_id", as: String.self),
                        username: try $0.decode(column: "username", as: String.self),
                        passwordHash: try $0.decode(column: "password_hash", as: String.self)
                    )
                }
        }
    }

    public func setPassword(accountID: String, username: String?, passwordHash: String, keepingSession sessionID: String, at: Date) async throws {
        try await database.transaction { sql in
            let existing = try await sql.select().column("account_id").from("password_credentials").where("account_id", .equal, accountID).first()
            if existing != nil {
                try await sql.update("password_credentials").set("password_hash", to: SQLBind(passwordHash))
                    .where("account_id", .equal, accountID).run()
            } else {
                guard let username else { throw ServerError.invalidRequest("username is required to add a password") }
                let taken = try await sql.select().column("account_id").from("password_credentials").where("username", .equal, username).first()
                guard taken == nil else { throw ServerError(.usernameTaken, status: .conflict, "this username is taken; choose another") }
                try await sql.insert(into: "password_credentials").columns("account_id", "username", "password_hash", "created_at")
                    .values(SQLBind(accountID), SQLBind(username), SQLBind(passwordHash), SQLBind(Int64(at.timeIntervalSince1970))).run()
            }
            try await sql.delete(from: "sessions").where("account_id", .equal, accountID).where("id", .notEqual, sessionID).run()
        }
    }

    public func activeSessions(accountID: String, now: Date) async throws -> [Session] {
        let seconds = Int64(now.timeIntervalSince1970)
        return try await database.read { sql in
            try await sql.select().columns("id", "account_id", "method", "created_at", "expires_at", "last_seen_at").from("sessions")
                .where("account_id", .equal, accountID).where("expires_at", .greaterThan, seconds)
                .orderBy("created_at", .descending).orderBy("id").limit(100)
                .all().map(SQLSessionStore.session(from:))
        }
    }

    public func endSession(id: String, accountID: String) async throws -> Bool {
        try await database.transaction { sql in
            try await sql.delete(from: "sessions").where("id", .equal, id).where("account_id", .equal, accountID).returning("id").all().count > 0
        }
    }

    public func endOtherSessions(accountID: String, keeping sessionID: String) async throws -> Int {
        try await database.transaction { sql in
            try await sql.delete(from: "sessions").where("account_id", .equal, accountID).where("id", .notEqual, sessionID)
                .returning("id").all().count
        }
    }
}
