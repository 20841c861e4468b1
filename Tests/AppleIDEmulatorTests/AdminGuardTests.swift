import Foundation
import Hummingbird
import JuiceTestSupport
import NIOHTTP1
import Testing

@testable import AppleIDEmulator

/// The development admin endpoints (no `admin_token`) against a DNS-rebinding page and a cross-site
/// form (finding 10 of the second security review), over real HTTP: a foreign `Host` is refused, and a
/// state-changing request that is not JSON changes nothing.
@Suite("Emulator admin endpoints: the guard without and with an admin token")
struct AdminGuardTests {
    static func withOpenAdmin(_ body: @Sendable (RunningEmulator) async throws -> Void) async throws {
        var configuration = Fixture.configuration()
        configuration.adminToken = nil
        try await RunningEmulator.with(configuration: configuration) { emulator in try await body(emulator) }
    }

    static func port(_ emulator: RunningEmulator) -> String {
        String(emulator.baseURL.split(separator: ":").last ?? "")
    }

    @Test("Without a token, a foreign Host (a rebinding page) is refused with 403; loopback names and addresses are answered")
    func foreignHost() async throws {
        try await Self.withOpenAdmin { emulator in
            let port = Self.port(emulator)
            let path = "/emulator/admin/mail?apple_id=\(Fixture.alice.email)"
            for host in ["evil.example:\(port)", "evil.example", "127.0.0.1.evil.example:\(port)", "localhost.evil.example", "10.0.0.1:\(port)"] {
                let answer = try await emulator.http.get(path, headers: [("Host", host)])
                #expect(answer.status == 403, "Host: \(host)")
                #expect(answer.json?["error"] as? String == "misdirected_request", "Host: \(host)")
            }
            for host in ["localhost:\(port)", "LOCALHOST", "app.localhost:\(port)", "127.0.0.1:\(port)", "127.1.2.3", "[::1]:\(port)"] {
                #expect(try await emulator.http.get(path, headers: [("Host", host)]).status == 200, "Host: \(host)")
            }
        }
    }

    @Test("Without a token, a state-changing request that is not application/json gets 415 and changes nothing (rotate-keys)")
    func crossSiteForm() async throws {
        try await Self.withOpenAdmin { emulator in
            let keysBefore = try await emulator.http.get("/auth/keys").body
            for contentType in ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x"] {
                let answer = try await emulator.http.send(
                    .POST, "/emulator/admin/rotate-keys", headers: [("Content-Type", contentType)], body: Array("a=b".utf8))
                #expect(answer.status == 415, "\(contentType)")
                #expect(answer.json?["error"] as? String == "unsupported_media_type")
            }
            let bare = try await emulator.http.send(.POST, "/emulator/admin/rotate-keys", headers: [], body: nil)
            #expect(bare.status == 415)
            #expect(try await emulator.http.get("/auth/keys").body == keysBefore, "a refused request rotated the keys")
            let json = try await emulator.http.send(
                .POST, "/emulator/admin/rotate-keys", headers: [("Content-Type", "application/json")], body: Array("{}".utf8))
            #expect(json.status == 200)
            #expect(try await emulator.http.get("/auth/keys").body != keysBefore)
        }
    }

    @Test("With a token, the token decides: none or a forged one gets 401 whatever the Host; the right one is answered")
    func withToken() async throws {
        try await RunningEmulator.with { (emulator: RunningEmulator) async throws -> Void in
            let path = "/emulator/admin/mail?apple_id=\(Fixture.alice.email)"
            #expect(try await emulator.http.get(path).status == 401)
            #expect(try await emulator.http.get(path, headers: [("Authorization", "Bearer forged")]).status == 401)
            #expect(try await emulator.http.send(.POST, "/emulator/admin/rotate-keys", headers: [], body: nil).status == 401)
            let bearer = ("Authorization", "Bearer \(Fixture.adminToken)")
            #expect(try await emulator.http.get(path, headers: [bearer, ("Host", "emulator.example")]).status == 200)
        }
    }

    @Test(
        "Host names are read as loopback only when they are",
        arguments: [
            ("localhost", true), ("a.localhost", true), ("127.0.0.1", true), ("127.255.0.9", true), ("::1", true),
            ("localhost.evil", false), ("127.0.0.1.evil", false), ("128.0.0.1", false), ("127.0.0.256", false), ("127.0.0", false), ("", false),
        ])
    func loopbackNames(host: String, loopback: Bool) {
        #expect(AdminRequestGuard<BasicRequestContext>.isLoopback(host) == loopback)
    }
}
