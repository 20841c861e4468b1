import Foundation
import JuiceTestSupport
import Testing

@testable import JuiceClient

/// The client's calls to the Juice server never follow a redirect and end at one deadline for head and
/// body (issue 40): a `Location` would otherwise receive the password or the session token.
@Suite("JuiceServerAPI: redirects are answers, a trickling body ends at the deadline")
struct JuiceServerAPIRedirectTests {
    @Test("a 307 to a password sign-in is an unexpected 307; the password never reaches the Location")
    func redirectIsNotFollowed() async throws {
        try await ScriptedHTTPServer.with(.plain(status: 200)) { sink in
            try await ScriptedHTTPServer.with(.redirect(status: 307, location: sink.url("/api/auth/password"))) { redirecting in
                let api = JuiceServerAPI(baseURL: try #require(URL(string: redirecting.url(""))))
                do throws(JuiceServerError) {
                    _ = try await api.signInWithPassword(PasswordCredential(user: "someone", password: "a secret password"))
                    Issue.record("a 307 was taken for a session")
                } catch {
                    #expect(error.code == .unexpectedResponse && error.status == 307, "\(error)")
                }
            }
            #expect(sink.requests == 0, "the password was re-sent to the Location")
        }
    }

    @Test("a server answering 200 and trickling its body times out at the call's deadline")
    func tricklingAnswerTimesOut() async throws {
        try await ScriptedHTTPServer.with(.trickle(interval: .milliseconds(50))) { trickling in
            let api = JuiceServerAPI(baseURL: try #require(URL(string: trickling.url(""))), timeout: .milliseconds(400))
            do throws(JuiceServerError) {
                _ = try await api.makeNonce()
                Issue.record("a trickling answer was accepted")
            } catch {
                #expect(error.code == .unreachable && "\(error)".contains("timed out"), "\(error)")
            }
        }
    }
}
