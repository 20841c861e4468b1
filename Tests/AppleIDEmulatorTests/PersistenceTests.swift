import AppleSignIn
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import AppleIDEmulator

@Suite("Persistence across restarts")
struct PersistenceTests {
    @Test("A restart loses nothing: keys, subjects, grants, refresh tokens, pending notifications")
    func restart() async throws {
        try await NotificationReceiver.with(failFirst: 1000) { receiver, url in
            let temporary = try TemporaryDirectory("emulator-tests")
            defer { temporary.remove() }
            let directory = temporary.url
            let clock = TestClock()
            let configuration = Fixture.configuration(notificationURL: url)
            let (subject, keyIDs, refreshToken) = try await RunningEmulator.with(configuration: configuration, dataDirectory: directory, clock: clock)
            { emulator -> (String, [String], String) in
                let page = try await WebFlow.signIn(emulator)
                let code = WebFlow.hiddenInputs(page.body)["code"]!
                let tokens = try await emulator.client().exchangeCode(
                    code, clientID: Fixture.servicesID, redirectURI: URL(string: Fixture.redirectURI)!)
                let subject = try await emulator.verifier().verify(tokens.idToken!).subject
                #expect(
                    try await emulator.admin.postJSON(
                        "/emulator/admin/set-email-forwarding", ["apple_id": Fixture.alice.email, "team_id": Fixture.teamA.teamID, "enabled": false]
                    ).status == 200)
                #expect(try await emulator.admin.postJSON("/emulator/admin/delete-apple-id", ["apple_id": Fixture.bob.email]).status == 200)
                #expect(
                    try await emulator.admin.postJSON(
                        "/emulator/admin/revoke-consent", ["apple_id": Fixture.alice.email, "client_id": Fixture.bundleID]
                    )
                    .status == 200)
                try await eventually("a failed attempt") { await receiver.count >= 1 }
                return (subject, try await KeyRotationTests.keyIDs(emulator), tokens.refreshToken!)
            }
            let mode =
                try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("emulator.sqlite").path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            await receiver.setFailures(0)
            clock.advance(by: 10)
            try await RunningEmulator.with(configuration: configuration, dataDirectory: directory, clock: clock) { emulator in
                #expect(try await KeyRotationTests.keyIDs(emulator) == keyIDs)
                try await eventually("delivered after restart") {
                    await receiver.count >= 2
                }
                // The revoked consent stayed revoked: the refresh token is dead, the next sign-in is a first one.
                do {
                    _ = try await emulator.client().validateRefreshToken(refreshToken, clientID: Fixture.servicesID)
                    Issue.record("a revoked refresh token worked after a restart")
                } catch {
                    #expect((error as? AppleIDClientError)?.isInvalidGrant == true)
                }
                let page = try await WebFlow.signIn(emulator)
                #expect(WebFlow.hiddenInputs(page.body)["user"] != nil)
                #expect(try await emulator.verifier().verify(WebFlow.hiddenInputs(page.body)["id_token"]!).subject == subject)
                // A deleted Apple ID stays deleted though the configuration still lists it.
                #expect(try await WebFlow.signIn(emulator, account: Fixture.bob).status == 401)
            }
        }
    }
}
