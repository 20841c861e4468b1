import Foundation
import JuiceEncodings
import SQLKit
import WebAuthn

/// Creates a passkey-first account in one transaction: spends the sign-up's challenge, inserts the
/// account (with its username, or none), its user handle, the passkey and the session, and reads the
/// account back. A refusal leaves nothing behind.
struct PasskeySignUpTransaction {
    let database: any JuiceDatabase

    /// Runs the sign-up's transaction and returns the new account as stored.
    /// - Throws: ``PasskeyError`` `challenge_unknown` (the challenge was spent: a replayed finish),
    ///   `credential_exists`; ``AccountStoreError/usernameTaken`` (taken since the options were issued).
    func run(_ signUp: PasskeyAccountDraft, session: SessionDraft) async throws -> Account {
        let credential = signUp.credential
        let now = PasskeyCredentialsTable.seconds(signUp.at)
        return try await database.transaction { sql in
            // The challenge is spent first: a replayed finish stops here, and a refusal below rolls the
            // spending back with everything else (the same answer, once more, leaves nothing either).
            let spent = try await SpentValues.spend([signUp.spentValueID], at: now, on: sql)
            guard !spent.isEmpty else { throw PasskeyError(.challengeUnknown, "this sign-up was already finished (its challenge was used)") }
            try await AccountsTable.insert(id: credential.accountID, username: signUp.username, at: now, on: sql)
            try await sql.insert(into: "passkey_users").columns("account_id", "user_handle")
                .values(SQLBind(credential.accountID), SQLBind(Base64URL.encode(credential.userHandle))).run()
            try await PasskeyCredentialsTable.insert(credential, on: sql)
            try await SessionsTable.insert(session, accountID: credential.accountID, on: sql)
            guard let account = try await AccountsTable.load(where: "a.id", equals: credential.accountID, on: sql) else {
                throw AccountStoreError.accountMissing
            }
            return account
        }
    }
}
