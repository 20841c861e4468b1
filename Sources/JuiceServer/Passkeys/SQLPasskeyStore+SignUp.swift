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
            let spent = try await sql.raw(
                "INSERT INTO spent_values (value_key, spent_at) VALUES (\(bind: signUp.spentValueID), \(bind: now)) ON CONFLICT (value_key) DO NOTHING RETURNING value_key"
            ).first()
            guard spent != nil else { throw PasskeyError(.challengeUnknown, "this sign-up was already finished (its challenge was used)") }
            try await SQLAccountRepository.insertAccount(id: credential.accountID, username: signUp.username, at: now, on: sql)
            try await sql.insert(into: "passkey_users").columns("account_id", "user_handle")
                .values(SQLBind(credential.accountID), SQLBind(Base64URL.encode(credential.userHandle))).run()
            try await Self.insert(credential, on: sql)
            try await SQLSessionStore.insert(session, accountID: credential.accountID, on: sql)
            guard let account = try await SQLAccountRepository.load(where: "a.id", equals: credential.accountID, on: sql) else {
                throw AccountStoreError.accountMissing
            }
            return account
        }
    }
}
