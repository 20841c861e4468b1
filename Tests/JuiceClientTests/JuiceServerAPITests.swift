import Foundation
import JuiceClient
import Testing

@Suite("Juice server API")
struct JuiceServerAPITests {
    @Test("turns {\"error\", \"reason\"} answers into typed errors without echoing the password")
    func typedErrors() async throws {
        try await StandInJuiceServer().run { base in
            let api = JuiceServerAPI(baseURL: base)
            do throws(JuiceServerError) {
                _ = try await api.signInWithPassword(PasswordCredential(user: "alice", password: "wrong-SECRET"))
                Issue.record("no error")
            } catch {
                #expect(error.code == .invalidCredentials)
                #expect(error.status == 401)
                #expect(error.reason == "wrong username or password")
                #expect(!"\(error)".contains("SECRET"))
            }
            let session = try await api.signInWithPassword(PasswordCredential(user: "alice", password: "correct horse"))
            #expect(session.account.username == "alice")
            #expect(!"\(session)".contains(session.token))
        }
    }

    @Test("an answer of the wrong shape is unexpectedResponse")
    func unexpectedShape() async throws {
        try await StandInJuiceServer().run { base in
            do throws(JuiceServerError) {
                _ = try await JuiceServerAPI(baseURL: base).account(sessionToken: "tok-SECRET")
                Issue.record("no error")
            } catch {
                #expect(error.code == .unexpectedResponse)
                #expect(error.status == 500)
                #expect(!"\(error)".contains("SECRET"))
            }
        }
    }

    @Test("a server that is not there is unreachable, quickly")
    func unreachable() async throws {
        let closedPort = try await StandInJuiceServer().run { base in base.port! }
        let api = JuiceServerAPI(baseURL: URL(string: "http://127.0.0.1:\(closedPort)")!)
        let started = ContinuousClock.now
        defer { #expect(ContinuousClock.now - started < .seconds(5), "reported at once, not after the 30 s call timeout") }
        do throws(JuiceServerError) {
            _ = try await api.makeNonce()
            Issue.record("no error")
        } catch {
            #expect(error.code == .unreachable)
            #expect(error.status == nil)
            #expect(error.reason.contains("127.0.0.1:\(closedPort)"))
        }
    }

    @Test("builds the native relay address with every value escaped")
    func relayURL() throws {
        let api = JuiceServerAPI(baseURL: URL(string: "https://juice.example/base")!)
        let url = api.nativeRelayURL(
            redirectURI: URL(string: "http://127.0.0.1:5000/callback")!, state: "a+b&c=d", nonce: "n/1", scopes: [.fullName, .email])
        #expect(
            url.absoluteString
                == "https://juice.example/base/auth/apple/native?redirect_uri=http%3A%2F%2F127.0.0.1%3A5000%2Fcallback&state=a%2Bb%26c%3Dd&nonce=n%2F1&scope=name%20email"
        )
        let bare = api.nativeRelayURL(redirectURI: URL(string: "http://127.0.0.1:1/c")!, state: "s", nonce: nil, scopes: [])
        #expect(bare.query == "redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fc&state=s")
    }

    @Test("refuses to send a credential without identity token, without calling the server")
    func credentialWithoutToken() async throws {
        let api = JuiceServerAPI(baseURL: URL(string: "http://127.0.0.1:1")!)
        let credential = AppleIDCredential(
            user: "u", state: nil, authorizedScopes: [], authorizationCode: nil, identityToken: nil, email: nil, fullName: nil, realUserStatus: .unsupported)
        await #expect(throws: JuiceServerError(.invalidRequest, "")) { try await api.signInWithApple(credential, rawNonce: "n") }
    }
}
