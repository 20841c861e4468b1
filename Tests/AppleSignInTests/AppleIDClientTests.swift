import Crypto
import Foundation
import Testing

@testable import AppleSignIn

@Suite("Apple REST client against a real HTTP server that checks what it receives")
struct AppleIDClientTests {
    static let clientID = "com.example.apple-samplecode.juice.web"

    func client(
        _ baseURL: String, key: P256.Signing.PrivateKey = TestKeys.team, retry: RetrySchedule = RetrySchedule(initialBackoff: .milliseconds(5)),
        timeout: Duration = .seconds(30)  // generous: the whole suite shares two cores; timeouts are tested below
    ) throws -> AppleIDClient {
        let signer = try ClientSecretSigner(teamID: FakeAppleTokenServer.teamID, keyID: FakeAppleTokenServer.keyID, privateKey: key)
        return AppleIDClient(baseURL: URL(string: baseURL)!, signer: signer, timeout: timeout, retrySchedule: retry)
    }

    @Test("code exchange sends Apple's form fields and returns the tokens")
    func exchange() async throws {
        let server = FakeAppleTokenServer()
        try await withLiveServer(server.router) { baseURL in
            let redirect = URL(string: "https://app.example.com/auth/apple/callback")!
            let tokens = try await client(baseURL).exchangeCode(FakeAppleTokenServer.validCode, clientID: Self.clientID, redirectURI: redirect)
            #expect(tokens.refreshToken == FakeAppleTokenServer.validRefreshToken)
            #expect(tokens.idToken == "eyJ.id.token")
            #expect(tokens.expiresIn == 3600)
            #expect(!"\(tokens)".contains(FakeAppleTokenServer.validRefreshToken))
            let fields = try #require(server.received.first).fields
            #expect(fields["grant_type"] == "authorization_code")
            #expect(fields["redirect_uri"] == redirect.absoluteString)
            #expect(fields["client_id"] == Self.clientID)

            _ = try await client(baseURL).exchangeCode(FakeAppleTokenServer.validCode, clientID: "com.example.apple-samplecode.juice")
            #expect(server.received.last?.fields["redirect_uri"] == nil)
        }
    }

    @Test("Apple's error bodies become typed errors with error and error_description")
    func appleErrors() async throws {
        let server = FakeAppleTokenServer()
        try await withLiveServer(server.router) { baseURL in
            do {
                _ = try await client(baseURL).exchangeCode("used-code", clientID: Self.clientID)
                Issue.record("a bad code was accepted")
            } catch let error as AppleIDClientError {
                #expect(error.code == .apple)
                #expect(error.appleError == "invalid_grant")
                #expect(error.appleErrorDescription == "The code has expired or has been revoked.")
                #expect(error.isInvalidGrant)
                #expect(error.status == 400)
            }
        }
    }

    @Test("a secret signed by another team's key is invalid_client")
    func foreignKey() async throws {
        let server = FakeAppleTokenServer()
        try await withLiveServer(server.router) { baseURL in
            do {
                _ = try await client(baseURL, key: TestKeys.otherTeam).validateRefreshToken(
                    FakeAppleTokenServer.validRefreshToken, clientID: Self.clientID)
                Issue.record("a foreign secret was accepted")
            } catch let error as AppleIDClientError {
                #expect(error.appleError == "invalid_client")
            }
            // Not transient: never retried.
            #expect(server.received.count == 1)
        }
    }

    @Test("refresh validation and revocation succeed; invalid refresh tokens are invalid_grant")
    func refreshAndRevoke() async throws {
        let server = FakeAppleTokenServer()
        try await withLiveServer(server.router) { baseURL in
            let client = try client(baseURL)
            let refreshed = try await client.validateRefreshToken(FakeAppleTokenServer.validRefreshToken, clientID: Self.clientID)
            #expect(refreshed.refreshToken == nil)
            #expect(refreshed.idToken == "eyJ.id.token2")
            await #expect(throws: AppleIDClientError.self) { try await client.validateRefreshToken("revoked", clientID: Self.clientID) }
            try await client.revoke(FakeAppleTokenServer.validRefreshToken, clientID: Self.clientID)
            let revoke = try #require(server.received.last)
            #expect(revoke.path == "auth/revoke")
            #expect(revoke.fields["token_type_hint"] == "refresh_token")
            #expect(revoke.fields["token"] == FakeAppleTokenServer.validRefreshToken)
        }
    }

    @Test("migration: client_credentials token, then sub → transfer_sub and transfer_sub → sub with a Bearer header")
    func migration() async throws {
        let server = FakeAppleTokenServer()
        try await withLiveServer(server.router) { baseURL in
            let client = try client(baseURL)
            let access = try await client.migrationAccessToken(clientID: Self.clientID)
            #expect(server.received.last?.fields["scope"] == "user.migration")
            #expect(server.received.last?.fields["grant_type"] == "client_credentials")
            let transfer = try await client.transferSubject(
                for: "001.abc.002", to: "ZYXWV98765", clientID: Self.clientID, accessToken: access.accessToken)
            #expect(transfer == "transfer.001.abc.002.ZYXWV98765")
            #expect(server.received.last?.authorization == "Bearer migration.access")
            let user = try await client.migratedUser(forTransferSubject: transfer, clientID: Self.clientID, accessToken: access.accessToken)
            #expect(user.subject == "new.\(transfer)")
            #expect(user.isPrivateEmail == true)
        }
    }

    @Test("idempotent calls are retried on 503 with backoff; the code exchange never is")
    func retries() async throws {
        let server = FakeAppleTokenServer()
        try await withLiveServer(server.router) { baseURL in
            let client = try client(baseURL)
            server.failNext(2)
            try await client.revoke("some-token", clientID: Self.clientID)
            #expect(server.received.count == 3)

            server.failNext(1)
            await #expect(throws: AppleIDClientError.self) {
                try await client.exchangeCode(FakeAppleTokenServer.validCode, clientID: Self.clientID)
            }
            #expect(server.received.count == 4)

            server.failNext(5)
            do {
                try await client.revoke("some-token", clientID: Self.clientID)
                Issue.record("a persistent outage was reported as success")
            } catch let error as AppleIDClientError {
                #expect(error.isTransient)
                #expect(error.status == 503)
                // Apple failing, not refusing: the body's error does not make it a refusal.
                #expect(error.code == .invalidResponse && error.appleError == "server_error")
            }
            #expect(server.received.count == 7)
        }
    }

    @Test("a slow Apple is a bounded timeout")
    func timeout() async throws {
        let server = FakeAppleTokenServer()
        server.delayAnswers(by: .seconds(1))
        try await withLiveServer(server.router) { baseURL in
            do {
                _ = try await client(baseURL, retry: .none, timeout: .milliseconds(200)).validateRefreshToken("x", clientID: Self.clientID)
                Issue.record("no timeout")
            } catch let error as AppleIDClientError {
                #expect(error.code == .timeout)
            }
        }
    }

    @Test("an unreachable Apple is reported as such")
    func unreachable() async throws {
        do {
            // AsyncHTTPClient retries a refused connection until the request's deadline, then reports the
            // connection error: a short deadline keeps this test from waiting out the generous default.
            try await client("http://127.0.0.1:9", retry: .none, timeout: .seconds(2)).revoke("x", clientID: Self.clientID)
            Issue.record("no error")
        } catch let error as AppleIDClientError {
            #expect(error.code == .unreachable)
            #expect(error.isTransient)
        }
    }
}
