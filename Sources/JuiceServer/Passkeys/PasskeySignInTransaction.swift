import Foundation
import SQLKit
import WebAuthn

/// A verified passkey sign-in's writes, all in one transaction: spends the challenge, records the use
/// (the signature counter) and starts the session.
struct PasskeySignInTransaction {
    let database: any JuiceDatabase

    /// A verified sign-in's writes, all in one transaction: spends the challenge (``PasskeyError``
    /// `challenge_unknown` when it was spent before), records the use as
    /// ``PasskeyCredentialsTable/recordUse(credentialID:previousSignCount:signCount:backedUp:at:on:)`` does (`counter_regressed` when the counter moved meanwhile) and starts the session. Returns the
    /// account as stored; when any step fails, nothing is written.
    func run(_ record: PasskeySignInRecord) async throws -> Account {
        try await database.transaction { sql in
            // The spend first: a replay is told as one, not as the counter regression it would also be.
            let spent = try await SpentValues.spend([record.challengeSpentValueID], at: PasskeyCredentialsTable.seconds(record.at), on: sql)
            guard !spent.isEmpty else { throw PasskeyError(.challengeUnknown, "the challenge was used") }
            let recorded = try await PasskeyCredentialsTable.recordUse(
                credentialID: record.credentialID, previousSignCount: record.previousSignCount, signCount: record.signCount,
                backedUp: record.backedUp, at: record.at, on: sql)
            guard recorded else {
                throw PasskeyError(.counterRegressed, "another sign-in with this passkey used the same signature counter")
            }
            try await SessionsTable.insert(record.session, accountID: record.accountID, on: sql)
            guard let account = try await AccountsTable.load(where: "a.id", equals: record.accountID, on: sql) else {
                throw PasskeyError(.unknownCredential, "the account is gone")
            }
            return account
        }
    }
}
