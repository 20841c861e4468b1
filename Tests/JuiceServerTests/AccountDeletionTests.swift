import AppleSignIn
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import SQLKit
import Testing

@testable import JuiceServer

@Suite("Account deletion revokes at Apple; with Apple down the revocation is queued durably and completed later")
struct AccountDeletionTests {
    /// The stored refresh token, opened with the environment's key.
    static func refreshToken(_ stack: JuiceStack, subject: String) async throws -> String {
        let sealed = try await stack.withDatabase { database in
            try await database.read { sql in
                try await sql.select().column("refresh_token").from("apple_identities").where("subject", .equal, subject).first()?
                    .decode(column: "refresh_token", as: String?.self)
            }
        }
        return try RefreshTokenCipher(key: stack.environment.serverSecret).open(try #require(sealed), subject: subject)
    }

    static func pending(_ stack: JuiceStack) async throws -> Int {
        try await stack.withDatabase { database in try await RevocationStore(database: database).pendingCount() }
    }

    /// Whether Apple still accepts the refresh token.
    static func appleAccepts(_ stack: JuiceStack, refreshToken: String) async throws -> Bool {
        try await stack.withDependencies { dependencies in
            do {
                _ = try await dependencies.appleClient.validateRefreshToken(refreshToken, clientID: StackEnvironment.bundleID)
                return true
            } catch let error as AppleIDClientError where error.isInvalidGrant {
                return false
            }
        }
    }

    @Test("DELETE /api/account with Apple up: the token is revoked at Apple, the account and its sessions are gone, nothing stays queued")
    func appleUp() async throws {
        try await JuiceStack.with { stack in
            let (token, _, credential) = try await NativeFlow.signIn(stack)
            let refreshToken = try await Self.refreshToken(stack, subject: credential.user)
            #expect(try await Self.appleAccepts(stack, refreshToken: refreshToken))
            let deleted = try await APIRequests.json(stack, "DELETE", "/api/account", bearer: token)
            #expect(deleted.status == 200)
            #expect(deleted.json?["appleRevocation"] as? String == "revoked")
            #expect(try await Self.appleAccepts(stack, refreshToken: refreshToken) == false, "Apple no longer accepts the token")
            #expect(try await Self.pending(stack) == 0)
            #expect(try await AppleFlow.me(stack, token: token).status == 401)
            #expect(try await NativeFlow.credentialState(stack, user: credential.user) == "notFound")
            let metrics = try await Browser().get(stack.serverURL + "/metrics").body
            #expect(metrics.contains(#"juice_apple_request_duration_seconds_count{endpoint="revoke",outcome="ok"} 1"#), "\(metrics)")
            #expect(metrics.contains("juice_queued_revocations 0.0"))
        }
    }

    @Test("the account page's Delete Account button revokes at Apple too")
    func pageButton() async throws {
        try await JuiceStack.with { stack in
            let browser = Browser()
            #expect(try await AppleFlow.signIn(stack, browser).status == 303)
            let me = try await browser.get(stack.serverURL + "/api/me")
            let subject = try #require(me.json?["user"] as? String)
            let refreshToken = try await Self.refreshToken(stack, subject: subject)
            let page = try await browser.get(stack.serverURL + "/account")
            let delete = try await browser.postForm(
                stack.serverURL + "/account/delete", [("csrf", try #require(Scrape.csrf(page.body))), ("confirm", "yes")],
                headers: [("Origin", stack.serverURL)]
            )
            #expect(delete.status == 303 && delete.location == "/?notice=deleted")
            let accepted = try await stack.withDependencies { dependencies in
                do {
                    _ = try await dependencies.appleClient.validateRefreshToken(refreshToken, clientID: StackEnvironment.servicesID)
                    return true
                } catch let error as AppleIDClientError where error.isInvalidGrant {
                    return false
                }
            }
            #expect(accepted == false)
            #expect(try await Self.pending(stack) == 0)
        }
    }

    @Test(
        "with Apple down the account is still deleted and the revocation queued; after Apple restarts (same port and data) the retry completes it",
        arguments: TestDatabase.all)
    func appleDown(database: TestDatabase) async throws {
        try await StackEnvironment.with(database) { made in
            let environment = made
            let clock = TestClock()
            let emulatorPort = try FreePort.pick()
            let emulatorURL = "http://127.0.0.1:\(emulatorPort)"
            try await StackServices.withServer(environment, emulatorURL: emulatorURL, clock: clock) { stack in
                let (token, refreshToken, subject) = try await StackServices.withEmulator(environment, port: emulatorPort, clock: clock) {
                    let (token, _, credential) = try await NativeFlow.signIn(stack)
                    return (token, try await Self.refreshToken(stack, subject: credential.user), credential.user)
                }
                // Apple is down now.
                let deleted = try await APIRequests.json(stack, "DELETE", "/api/account", bearer: token)
                #expect(deleted.status == 200)
                #expect(deleted.json?["deleted"] as? Bool == true)
                #expect(deleted.json?["appleRevocation"] as? String == "queued")
                #expect(try await AppleFlow.me(stack, token: token).status == 401)
                #expect(try await NativeFlow.credentialState(stack, user: subject) == "notFound")
                #expect(try await Self.pending(stack) == 1)
                let stored = try await stack.withDatabase { database in
                    try await database.read { sql in
                        try await sql.select().columns("sealed_token", "attempts", "last_error").from("pending_revocations").first()
                    }
                }
                let sealed = try #require(try stored?.decode(column: "sealed_token", as: String.self))
                #expect(!sealed.contains(refreshToken), "the queued token stays sealed")
                #expect(try stored?.decode(column: "attempts", as: Int.self) == 1)
                #expect(try stored?.decode(column: "last_error", as: String?.self) == "unreachable")

                // Still down: a retry before the backoff does nothing, one after it fails and backs off further.
                #expect(try await stack.withDependencies { try await $0.revocations.retryDue(logger: StackServices.logger) } == 0)
                clock.advance(by: 31)
                #expect(try await stack.withDependencies { try await $0.revocations.retryDue(logger: StackServices.logger) } == 0)
                #expect(try await Self.pending(stack) == 1)

                try await StackServices.withEmulator(environment, port: emulatorPort, clock: clock) {
                    #expect(try await Self.appleAccepts(stack, refreshToken: refreshToken), "not revoked yet")
                    clock.advance(by: 61)
                    let confirmed = try await stack.withDependencies { try await $0.revocations.retryDue(logger: StackServices.logger) }
                    #expect(confirmed == 1)
                    #expect(try await Self.pending(stack) == 0)
                    #expect(try await Self.appleAccepts(stack, refreshToken: refreshToken) == false, "revoked at Apple")
                }
            }
        }
    }
}
