import Foundation
import JuiceTestSupport
import Testing

@testable import AppleSignIn

/// The toolkit's calls to Apple (token, revoke, keys) never follow a redirect and end at one deadline
/// for head and body (issue 40, findings 1 and 2): a `Location` would otherwise receive the client
/// secret, the code or the refresh token.
@Suite("Apple REST client and key source: redirects are answers, a trickling body ends at the deadline")
struct AppleOutgoingHTTPTests {
    static func client(_ baseURL: String, timeout: Duration = .seconds(30)) throws -> AppleIDClient {
        let signer = try ClientSecretSigner(teamID: FakeAppleTokenServer.teamID, keyID: FakeAppleTokenServer.keyID, privateKey: TestKeys.team)
        return AppleIDClient(
            baseURL: try #require(URL(string: baseURL)), signer: signer, timeout: timeout,
            retrySchedule: RetrySchedule(initialBackoff: .milliseconds(5)))
    }

    @Test("a 307 or 302 from /auth/token or /auth/revoke is invalid_response with its status; nothing reaches the Location")
    func restRedirectsAreNotFollowed() async throws {
        try await ScriptedHTTPServer.with(.plain(status: 200)) { sink in
            for status in [307, 302] {
                try await ScriptedHTTPServer.with(.redirect(status: status, location: sink.url("/auth/token"))) { redirecting in
                    let client = try Self.client(redirecting.url(""))
                    do throws(AppleIDClientError) {
                        _ = try await client.exchangeCode("a-code", clientID: AppleIDClientTests.clientID)
                        Issue.record("a \(status) was taken for tokens")
                    } catch {
                        #expect(error.code == .invalidResponse && error.status == status, "\(error)")
                    }
                    await #expect(throws: AppleIDClientError.self) {
                        try await client.revoke("a-refresh-token", clientID: AppleIDClientTests.clientID)
                    }
                }
            }
            #expect(sink.requests == 0, "a request was re-sent to the Location")
        }
    }

    @Test("a 302 from the key endpoint is refused with its status; the Location's keys are never fetched")
    func keyRedirectIsNotFollowed() async throws {
        try await ScriptedHTTPServer.with(.plain(status: 200)) { sink in
            try await ScriptedHTTPServer.with(.redirect(status: 302, location: sink.url("/auth/keys"))) { redirecting in
                do {
                    _ = try await HTTPAppleKeySource(url: redirecting.url("/auth/keys")).fetchKeys()
                    Issue.record("a 302 was taken for keys")
                } catch {
                    #expect("\(error)".contains("HTTP 302"), "\(error)")
                }
            }
            #expect(sink.requests == 0)
        }
    }

    @Test("Apple answering 200 and trickling its body is a timeout at the client's deadline, not a wait for the last byte")
    func tricklingAnswerTimesOut() async throws {
        try await ScriptedHTTPServer.with(.trickle(interval: .milliseconds(50))) { trickling in
            let client = try Self.client(trickling.url(""), timeout: .milliseconds(400))
            do throws(AppleIDClientError) {
                _ = try await client.exchangeCode("a-code", clientID: AppleIDClientTests.clientID)
                Issue.record("a trickling answer was accepted")
            } catch {
                #expect(error.code == .timeout, "\(error)")
            }
            do {
                _ = try await HTTPAppleKeySource(url: trickling.url("/auth/keys"), timeout: .milliseconds(400)).fetchKeys()
                Issue.record("a trickling key set was accepted")
            } catch let error as KeySetError {
                #expect(error.code == .unavailable && error.reason.hasSuffix("no complete answer within 0.4 s (head and body)"), "\(error)")
            }
        }
    }
}
