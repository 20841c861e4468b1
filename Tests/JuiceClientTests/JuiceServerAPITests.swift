import Foundation
import Hummingbird
import HummingbirdTesting
import JuiceStackSupport
import JuiceTestSupport
import NIOCore
import Testing

@testable import JuiceClient

@Suite("Juice server API")
struct JuiceServerAPITests {
    @Test("turns the real server's {\"error\", \"reason\"} answers into typed errors without echoing the password")
    func typedErrors() async throws {
        try await JuiceStack.with(database: .sqlite) { juice in
            let api = JuiceServerAPI(baseURL: juice.serverBaseURL)
            let created = try await api.createAccount(PasswordCredential(user: "alice", password: "correct horse battery"))
            #expect(created.account.username == "alice")
            do throws(JuiceServerError) {
                _ = try await api.signInWithPassword(PasswordCredential(user: "alice", password: "wrong-SECRET"))
                Issue.record("no error")
            } catch {
                #expect(error.code == .invalidCredentials)
                #expect(error.status == 401)
                #expect(!"\(error)".contains("SECRET"))
            }
            let session = try await api.signInWithPassword(PasswordCredential(user: "alice", password: "correct horse battery"))
            #expect(session.account.username == "alice")
            #expect(!"\(session)".contains(session.token))
            do throws(JuiceServerError) {
                _ = try await api.account(sessionToken: "tok-SECRET")
                Issue.record("no error")
            } catch {
                #expect(error.code == .unauthorized)
                #expect(!"\(error)".contains("SECRET"))
            }
        }
    }

    @Test("an answer that is not the documented shape (a proxy's error page) is unexpectedResponse")
    func unexpectedShape() async throws {
        let router = Router()
        router.get("/api/me") { _, _ in Response(status: .badGateway, body: .init(byteBuffer: ByteBuffer(string: "<html>Bad gateway</html>"))) }
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
            let base = URL(string: "http://127.0.0.1:\(client.port!)")!
            do throws(JuiceServerError) {
                _ = try await JuiceServerAPI(baseURL: base).account(sessionToken: "tok-SECRET")
                Issue.record("no error")
            } catch {
                #expect(error.code == .unexpectedResponse)
                #expect(error.status == 502)
                #expect(!"\(error)".contains("SECRET"))
            }
        }
    }

    @Test("a server that is not there is unreachable")
    func unreachable() async throws {
        let closedPort = try FreePort.pick()
        let api = JuiceServerAPI(baseURL: URL(string: "http://127.0.0.1:\(closedPort)")!)
        do throws(JuiceServerError) {
            _ = try await api.makeNonce()
            Issue.record("no error")
        } catch {
            #expect(error.code == .unreachable)
            #expect(error.status == nil)
            #expect(error.reason.contains("127.0.0.1:\(closedPort)"))
        }
    }

    @Test("builds the loopback bridge address with every value escaped")
    func bridgeURL() throws {
        let api = JuiceServerAPI(baseURL: URL(string: "https://juice.example/base")!)
        let url = api.loopbackBridgeURL(
            redirectURI: URL(string: "http://127.0.0.1:5000/callback")!, state: "a+b&c=d", nonce: "n/1", scopes: [.fullName, .email])
        #expect(
            url.absoluteString
                == "https://juice.example/base/auth/apple/native?redirect_uri=http%3A%2F%2F127.0.0.1%3A5000%2Fcallback&state=a%2Bb%26c%3Dd&nonce=n%2F1&scope=name%20email"
        )
        let bare = api.loopbackBridgeURL(redirectURI: URL(string: "http://127.0.0.1:1/c")!, state: "s", nonce: nil, scopes: [])
        #expect(bare.query == "redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fc&state=s")
    }

    @Test("refuses to send a credential without identity token, without calling the server")
    func credentialWithoutToken() async throws {
        let api = JuiceServerAPI(baseURL: URL(string: "http://127.0.0.1:1")!)
        let credential = AppleIDCredential(
            user: "u", state: nil, authorizedScopes: [], authorizationCode: nil, identityToken: nil, email: nil, fullName: nil,
            realUserStatus: .unsupported)
        await #expect(throws: JuiceServerError(.invalidRequest, "")) { try await api.signInWithApple(credential, rawNonce: "n") }
    }
}
