import Foundation
import JuiceStackSupport
import JuiceTestSupport
import SQLKit
import Testing

@testable import JuiceServer

@Suite("App transfer: transfer_sub re-keys the account; the old sub's credential state is transferred")
struct AppTransferTests {
    @Test(
        "the sending team stores transfer_subs; after the transfer a token carrying transfer_sub re-keys the same account",
        arguments: TestDatabase.all)
    func transfer(database: TestDatabase) async throws {
        try await StackEnvironment.with(database) { made in
            var environment = made
            let clock = TestClock()
            let before = try await JuiceStack.with(environment: environment, clock: clock) { stack in
                let (_, account, credential) = try await NativeFlow.signIn(stack)
                let prepared = try await stack.withDependencies {
                    try await $0.appTransfer.prepare(targetTeamID: StackEnvironment.receivingTeamID, logger: StackServices.logger)
                }
                #expect(prepared == 1)
                #expect(
                    try await stack.withDependencies {
                        try await $0.appTransfer.prepare(targetTeamID: StackEnvironment.receivingTeamID, logger: StackServices.logger)
                    } == 0)
                try await stack.admin(
                    "transfer-app", ["bundle_id": StackEnvironment.bundleID, "to_team_id": StackEnvironment.receivingTeamID])
                return (accountID: try #require(account["id"] as? String), subject: credential.user)
            }
            // The app now belongs to the receiving team, whose key signs the client secrets.
            environment.serverIsReceivingTeam = true
            try await JuiceStack.with(environment: environment, clock: clock) { stack in
                let (token, account, credential) = try await NativeFlow.signIn(stack)
                #expect(credential.user != before.subject, "the receiving team sees another sub")
                #expect(account["id"] as? String == before.accountID, "the same account, re-keyed")
                #expect(account["user"] as? String == credential.user)
                #expect((account["name"] as? [String: Any])?["givenName"] as? String == "Johnny")
                #expect(try await NativeFlow.credentialState(stack, user: before.subject) == "transferred")
                #expect(try await NativeFlow.credentialState(stack, user: credential.user) == "authorized")
                #expect(try await AppleFlow.me(stack, token: token).json?["user"] as? String == credential.user)
                let identities = try await stack.withDatabase { database in
                    try await database.read { sql in try await sql.select().column("subject").from("apple_identities").all().count }
                }
                #expect(identities == 1)
            }
        }
    }

    @Test(
        "the receiving team's migration step re-keys every account at once with Apple's usermigrationinfo, before anyone signs in",
        arguments: TestDatabase.all)
    func migrateAhead(database: TestDatabase) async throws {
        try await StackEnvironment.with(database) { made in
            var environment = made
            let clock = TestClock()
            let before = try await JuiceStack.with(environment: environment, clock: clock) { stack in
                let (_, account, credential) = try await NativeFlow.signIn(stack, emailChoice: "hide")
                try await stack.withDependencies {
                    _ = try await $0.appTransfer.prepare(targetTeamID: StackEnvironment.receivingTeamID, logger: StackServices.logger)
                }
                try await stack.admin(
                    "transfer-app", ["bundle_id": StackEnvironment.bundleID, "to_team_id": StackEnvironment.receivingTeamID]
                )
                return (accountID: try #require(account["id"] as? String), subject: credential.user, email: try #require(account["email"] as? String))
            }
            environment.serverIsReceivingTeam = true
            try await JuiceStack.with(environment: environment, clock: clock) { stack in
                let migrated = try await stack.withDependencies { try await $0.appTransfer.migrate(logger: StackServices.logger) }
                #expect(migrated == 1)
                #expect(try await stack.withDependencies { try await $0.appTransfer.migrate(logger: StackServices.logger) } == 0)
                #expect(try await NativeFlow.credentialState(stack, user: before.subject) == "transferred")
                let (subject, email) = try await stack.withDatabase { database in
                    try await database.read { sql in
                        let row = try await sql.select().columns("subject", "email").from("apple_identities").first()
                        return (try row?.decode(column: "subject", as: String.self), try row?.decode(column: "email", as: String?.self))
                    }
                }
                let newSubject = try #require(subject)
                #expect(newSubject != before.subject)
                #expect(email != before.email, "the receiving team has its own relay address")
                #expect(email?.hasSuffix("@private.icloud.com") == true)
                #expect(try await NativeFlow.credentialState(stack, user: newSubject) == "authorized")

                let (_, account, credential) = try await NativeFlow.signIn(stack, emailChoice: "hide")
                #expect(credential.user == newSubject)
                #expect(account["id"] as? String == before.accountID)
            }
        }
    }
}
