import Foundation
import JuiceServer
import SQLKit
import Testing

@Suite("App transfer: transfer_sub re-keys the account; the old sub's credential state is transferred")
struct AppTransferTests {
    @Test("the sending team stores transfer_subs; after the transfer a token carrying transfer_sub re-keys the same account")
    func transfer() async throws {
        var environment = try StackEnvironment.make()
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
            try await NativeFlow.admin(
                stack, "transfer-app", ["bundle_id": StackEnvironment.bundleID, "to_team_id": StackEnvironment.receivingTeamID])
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
