import AppleSignIn
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import AppleIDEmulator

@Suite("App transfer and user migration")
struct AppTransferTests {
    @Test("transfer_sub from the sending team, sub and new relay email for the receiving team, transfer_sub in tokens for 60 days")
    func transfer() async throws {
        let clock = TestClock()
        try await RunningEmulator.with(clock: clock) { emulator in
            let page = try await WebFlow.signIn(emulator, emailChoice: "hide")
            let before = try await emulator.verifier().verify(WebFlow.hiddenInputs(page.body)["id_token"]!)
            let oldRelay = try #require(before.email)

            let transferred = try await emulator.admin.postJSON(
                "/emulator/admin/transfer-app", ["bundle_id": Fixture.bundleID, "to_team_id": Fixture.teamB.teamID])
            #expect(transferred.status == 200)

            // Sending team (its own key, during the transfer window).
            let sending = try emulator.client(team: Fixture.teamA)
            let sendingToken = try await sending.migrationAccessToken(clientID: Fixture.servicesID)
            #expect(sendingToken.idToken == nil)
            #expect(sendingToken.refreshToken == nil)
            let transferSubject = try await sending.transferSubject(
                for: before.subject, to: Fixture.teamB.teamID, clientID: Fixture.servicesID, accessToken: sendingToken.accessToken
            )
            #expect(transferSubject.range(of: #"^[0-9]{6}\.[0-9a-f]{32}\.[0-9]{4}$"#, options: .regularExpression) != nil)

            // Receiving team.
            let receiving = try emulator.client(team: Fixture.teamB)
            let receivingToken = try await receiving.migrationAccessToken(clientID: Fixture.servicesID)
            let migrated = try await receiving.migratedUser(
                forTransferSubject: transferSubject, clientID: Fixture.servicesID, accessToken: receivingToken.accessToken)
            #expect(migrated.subject != before.subject)
            #expect(migrated.isPrivateEmail == true)
            #expect(migrated.email != oldRelay)
            #expect(migrated.email?.hasSuffix("@private.icloud.com") == true)

            // A token of one team does not work for the other's calls.
            await #expect(throws: AppleIDClientError.self) {
                _ = try await receiving.transferSubject(
                    for: before.subject, to: Fixture.teamA.teamID, clientID: Fixture.servicesID, accessToken: sendingToken.accessToken)
            }

            // Sign-ins now carry the new team's sub and the transfer_sub; the code needs the new team's secret.
            let after = WebFlow.hiddenInputs(try await WebFlow.signIn(emulator).body)
            let token = try await emulator.verifier().verify(after["id_token"]!)
            #expect(token.subject == migrated.subject)
            #expect(token.transferSubject == transferSubject)
            #expect(token.email == migrated.email)
            await #expect(throws: AppleIDClientError.self) {
                _ = try await sending.exchangeCode(after["code"]!, clientID: Fixture.servicesID, redirectURI: URL(string: Fixture.redirectURI)!)
            }
            let tokens = try await receiving.exchangeCode(
                after["code"]!, clientID: Fixture.servicesID, redirectURI: URL(string: Fixture.redirectURI)!)
            #expect(try await emulator.verifier().verify(tokens.idToken!).transferSubject == transferSubject)

            // After 60 days: no transfer_sub, and the sending team's key no longer works.
            clock.advance(by: 61 * 86_400)
            let later = WebFlow.hiddenInputs(try await WebFlow.signIn(emulator).body)
            let laterToken = try await emulator.verifier().verify(later["id_token"]!)
            #expect(laterToken.transferSubject == nil)
            #expect(laterToken.subject == migrated.subject)
            await #expect(throws: AppleIDClientError.self) {
                _ = try await emulator.client(team: Fixture.teamA).migrationAccessToken(clientID: Fixture.servicesID)
            }
        }
    }

    @Test("usermigrationinfo refuses a missing bearer, a non-migration token, an unknown target and an unknown transfer_sub")
    func migrationErrors() async throws {
        try await RunningEmulator.with { emulator in
            let secret = try await emulator.secret(clientID: Fixture.servicesID)
            let base = [("client_id", Fixture.servicesID), ("client_secret", secret)]
            #expect(
                try await emulator.http.postForm("/auth/usermigrationinfo", base + [("sub", "x"), ("target", Fixture.teamB.teamID)]).error
                    == "invalid_request")
            let migration = try await emulator.client().migrationAccessToken(clientID: Fixture.servicesID)
            let bearer = [("Authorization", "Bearer \(migration.accessToken)")]
            #expect(
                try await emulator.http.postForm("/auth/usermigrationinfo", base + [("sub", "x"), ("target", "NOTATEAM00")], headers: bearer).error
                    == "invalid_request")
            #expect(
                try await emulator.http.postForm("/auth/usermigrationinfo", base + [("sub", "x"), ("target", Fixture.teamB.teamID)], headers: bearer)
                    .error
                    == "invalid_request")
            #expect(
                try await emulator.http.postForm("/auth/usermigrationinfo", base + [("transfer_sub", "x")], headers: bearer).error
                    == "invalid_request")
            let userTokens = try await emulator.client().exchangeCode(
                WebFlow.hiddenInputs(try await WebFlow.signIn(emulator).body)["code"]!, clientID: Fixture.servicesID,
                redirectURI: URL(string: Fixture.redirectURI)!
            )
            let wrongBearer = [("Authorization", "Bearer \(userTokens.accessToken)")]
            #expect(
                try await emulator.http.postForm("/auth/usermigrationinfo", base + [("transfer_sub", "x")], headers: wrongBearer).error
                    == "invalid_client"
            )
        }
    }
}
