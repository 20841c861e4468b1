import Foundation
import JuiceEncodings
import SQLKit
import WebAuthn

extension SQLPasskeyStore {
    func createAccount(_ signUp: PasskeyAccountDraft, session: SessionDraft) async throws -> Account {
        let credential = signUp.credential
        let now = Self.seconds(signUp.at)
        return try await database.transaction { sql in
            // The challenge is spent first: a replayed finish stops here, and a refusal below rolls the
            // spending back with everything else (the same answer, once more, leaves nothing either).
            let spent = try await SpentValues.spend([signUp.spentValueID], at: now, on: sql)
            guard !spent.isEmpty else { throw PasskeyError(.challengeUnknown, "this sign-up was already finished (its challenge was used)") }
            try await AccountsTable.insert(id: credential.accountID, username: signUp.username, at: now, on: sql)
            try await sql.insert(into: "passkey_users").columns("account_id", "user_handle")
                .values(SQLBind(credential.accountID), SQLBind(Base64URL.encode(credential.userHandle))).run()
            try await Self.insert(credential, on: sql)
            try await SessionsTable.insert(session, accountID: credential.accountID, on: sql)
            guard let account = try await AccountsTable.load(where: "a.id", equals: credential.accountID, on: sql) else {
                throw AccountStoreError.accountMissing
            }
            return account
        }
    }
}
