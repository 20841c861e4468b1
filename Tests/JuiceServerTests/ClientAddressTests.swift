import AppleSignIn
import Crypto
import Foundation
import JuiceEncodings
import JuiceTestSupport
import NIOHTTP1
import Testing

@testable import JuiceServer

@Suite("Client address: trusted proxies, forwarding headers, throttling per client and username")
struct ClientAddressTests {
    static func passwordSignIn(
        _ stack: JuiceStack, _ username: String, _ password: String, _ headers: [(String, String)]
    ) async throws
        -> HTTPResult
    {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["username": username, "password": password]), as: UTF8.self)
        return try await Browser().send(
            .POST, stack.serverURL + "/api/auth/password", headers: [("Content-Type", "application/json")] + headers, body: body)
    }

    static func behindProxy(_ body: @escaping @Sendable (JuiceStack) async throws -> Void) async throws {
        try await StackEnvironment.with(.sqlite) { environment in
            var environment = environment
            environment.trustedProxies = try TrustedProxies(parsing: ["127.0.0.1/32", "::1"])
            try await JuiceStack.with(environment: environment) { try await body($0) }
        }
    }

    @Test("behind a trusted proxy, one client's failures never lock out another client's correct password; 429 carries Retry-After")
    func oneClientCannotLockOutAnother() async throws {
        try await Self.behindProxy { stack in
            let created = try await APIRequests.json(stack, "POST", "/api/accounts", ["username": "shared", "password": "citrus-grove-88"])
            #expect(created.status == 201)
            let attacker = [("X-Forwarded-For", "203.0.113.5")]
            for attempt in 1...25 {
                let name = attempt.isMultiple(of: 2) ? "shared" : "someone-\(attempt)"
                let answer = try await Self.passwordSignIn(stack, name, "wrong-password", attacker)
                #expect([401, 429].contains(answer.status))
            }
            let locked = try await Self.passwordSignIn(stack, "shared", "citrus-grove-88", attacker)
            #expect(locked.status == 429)
            #expect(locked.error == "rate_limited")
            let retryAfter = try #require(locked[header: "Retry-After"].flatMap { Int($0) })
            #expect((1...900).contains(retryAfter))

            // Another client behind the same proxy: its correct password works at once.
            let other = try await Self.passwordSignIn(stack, "shared", "citrus-grove-88", [("X-Forwarded-For", "198.51.100.7")])
            #expect(other.status == 200)
            // RFC 7239 Forwarded names a third client the same way.
            let third = try await Self.passwordSignIn(stack, "shared", "citrus-grove-88", [("Forwarded", #"for="[2001:db8::7]:4711";proto=https"#)])
            #expect(third.status == 200)

            // The attacker is let in again once the window has passed.
            stack.clock.advance(by: TimeInterval(retryAfter))
            #expect(try await Self.passwordSignIn(stack, "shared", "citrus-grove-88", attacker).status == 200)
        }
    }

    @Test("the web sign-in form answers 429 with Retry-After too")
    func formRetryAfter() async throws {
        try await Self.behindProxy { stack in
            let browser = Browser()
            for _ in 1...5 {
                let page = try await browser.get(stack.serverURL + "/")
                let csrf = try #require(Scrape.csrf(page.body))
                _ = try await browser.postForm(
                    stack.serverURL + "/signin", [("csrf", csrf), ("username", "nobody"), ("password", "wrong-password")],
                    headers: [("Origin", stack.serverURL), ("X-Forwarded-For", "203.0.113.50")])
            }
            let page = try await browser.get(stack.serverURL + "/")
            let answer = try await browser.postForm(
                stack.serverURL + "/signin", [("csrf", try #require(Scrape.csrf(page.body))), ("username", "nobody"), ("password", "x")],
                headers: [("Origin", stack.serverURL), ("X-Forwarded-For", "203.0.113.50")])
            #expect(answer.status == 429)
            #expect(answer[header: "Retry-After"].flatMap { Int($0) } != nil)
        }
    }

    @Test("from an untrusted peer, forwarding headers are ignored: rotating X-Forwarded-For does not escape the throttle")
    func untrustedPeer() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            for attempt in 1...5 {
                let answer = try await Self.passwordSignIn(
                    stack, "target", "wrong-password", [("X-Forwarded-For", "203.0.113.\(attempt)"), ("Forwarded", "for=198.51.100.\(attempt)")])
                #expect(answer.status == 401)
            }
            let spoofed = try await Self.passwordSignIn(stack, "target", "wrong-password", [("X-Forwarded-For", "192.0.2.200")])
            #expect(spoofed.status == 429, "the peer, not the header, is the client")
            let https = try await Browser().get(stack.serverURL + "/", headers: [("X-Forwarded-Proto", "https")])
            #expect(https[header: "Strict-Transport-Security"] == nil, "an untrusted peer cannot turn on HSTS")
        }
    }

    @Test("HSTS when a trusted proxy says the request came over https, not when it says http")
    func hstsFromProxy() async throws {
        try await Self.behindProxy { stack in
            let https = try await Browser().get(stack.serverURL + "/", headers: [("X-Forwarded-Proto", "https")])
            #expect(https[header: "Strict-Transport-Security"] == "max-age=31536000")
            let forwarded = try await Browser().get(stack.serverURL + "/", headers: [("Forwarded", "for=192.0.2.1;proto=https")])
            #expect(forwarded[header: "Strict-Transport-Security"] == "max-age=31536000")
            let http = try await Browser().get(stack.serverURL + "/", headers: [("X-Forwarded-Proto", "http")])
            #expect(http[header: "Strict-Transport-Security"] == nil)
        }
    }

    @Test("X-Forwarded-For: the rightmost untrusted hop is the client; spoofed entries to its left are ignored")
    func rightmostUntrustedHop() throws {
        let trusted = try TrustedProxies(parsing: ["10.0.0.0/8", "2001:db8:ffff::/48"])
        let peer = try #require(IPAddress("10.1.2.3"))
        func client(_ xff: String) -> String? {
            ForwardedHeaders(forwarded: [], xForwardedFor: [xff], xForwardedProto: [])?.client(peer: peer, trusted: trusted).description
        }
        #expect(client("203.0.113.9") == "203.0.113.9")
        #expect(client("1.1.1.1, 203.0.113.9, 10.0.0.7") == "203.0.113.9", "the spoofed leftmost entry is ignored")
        #expect(client("10.9.9.9, 10.0.0.7") == "10.9.9.9", "all trusted: the leftmost")
        #expect(client("203.0.113.9, garbage") == "10.1.2.3", "an unreadable hop stops at the proxy that wrote it")
        #expect(client("2001:db8::5, 2001:db8:ffff::1") == "2001:db8::5")
        #expect(client("::ffff:198.51.100.4") == "198.51.100.4", "IPv4-mapped addresses are IPv4")
        let untrusted = try #require(IPAddress("192.0.2.44"))
        let ignored = ForwardedHeaders(forwarded: [], xForwardedFor: ["203.0.113.9"], xForwardedProto: [])
        #expect(ignored?.client(peer: untrusted, trusted: trusted).description == "192.0.2.44")

        let forwarded = ForwardedHeaders(
            forwarded: [#"for=198.51.100.1;proto=http, for="[2001:db8::17]:4711";proto=https"#, "for=unknown"], xForwardedFor: ["1.2.3.4"],
            xForwardedProto: ["http"])
        #expect(forwarded?.hops.count == 3)
        #expect(forwarded?.proto == nil, "proto comes from the nearest proxy's element, which has none")
        #expect(forwarded?.client(peer: peer, trusted: trusted).description == "10.1.2.3", "unknown stops the walk")
        let two = ForwardedHeaders(forwarded: [#"for=198.51.100.1, for="[2001:db8::17]:4711";proto=https"#], xForwardedFor: [], xForwardedProto: [])
        #expect(two?.proto == "https")
        #expect(two?.client(peer: peer, trusted: trusted).description == "2001:db8::17")
    }

    @Test("CIDR ranges parse for IPv4 and IPv6; hostile entries are refused, never trapped on")
    func cidr() throws {
        let v4 = try #require(IPNetwork("192.168.0.0/16"))
        #expect(v4.contains(try #require(IPAddress("192.168.44.1"))))
        #expect(!v4.contains(try #require(IPAddress("192.169.0.1"))))
        #expect(!v4.contains(try #require(IPAddress("::1"))))
        let v6 = try #require(IPNetwork("2001:db8::/33"))
        #expect(v6.contains(try #require(IPAddress("2001:db8:7fff::1"))))
        #expect(!v6.contains(try #require(IPAddress("2001:db8:8000::1"))))
        #expect(IPNetwork("0.0.0.0/0")?.contains(try #require(IPAddress("8.8.8.8"))) == true)
        #expect(IPNetwork("10.1.2.3")?.prefixLength == 32)
        for hostile in [
            "10.0.0.0/33", "::/129", "10.0.0.0/-1", "10.0.0.0/+8", "10.0.0.0/", "10.0.0.0/99999999999999999999999", "10.0.0/8", "example.com",
            "", "/8", "1.2.3.4/8/8", "256.1.1.1", "10.0.0.0/ 8", String(repeating: "1", count: 10_000),
        ] {
            #expect(IPNetwork(hostile) == nil, "\(hostile.prefix(40))")
        }
    }

    @Test("trusted_proxies loads from juice.json and JUICE_TRUSTED_PROXIES; a bad entry is a configuration error naming it")
    func configuration() throws {
        let temporary = try TemporaryDirectory("proxies")
        defer { temporary.remove() }
        let directory = temporary.url
        try temporary.writePrivate("AuthKey_KEY1234567.p8", P256.Signing.PrivateKey().pemRepresentation)
        let key = Data(SymmetricKey(size: .bits256).withUnsafeBytes(Array.init)).base64EncodedString()
        func load(_ extra: String, environment: [String: String] = [:]) throws -> ServerConfiguration {
            let file = directory.appendingPathComponent("juice.json")
            try """
            {"client_id": "com.example.juice.web", "team_id": "ABCDE12345", "key_id": "KEY1234567", "private_key_path": "AuthKey_KEY1234567.p8",
             "public_url": "https://juice.example.com", "refresh_token_key": "\(key)"\(extra)}
            """.write(to: file, atomically: true, encoding: .utf8)
            return try ServerConfiguration.load(file: file, environment: environment, dataDirectory: directory)
        }
        #expect(try load("").trustedProxies == .none)
        #expect(
            try load(#", "trusted_proxies": ["10.0.0.0/8", "fd00::/8"]"#).trustedProxies.networks.map(\.description) == ["10.0.0.0/8", "fd00::/8"])
        let fromEnvironment = try load("", environment: ["JUICE_TRUSTED_PROXIES": "127.0.0.1, 192.168.1.0/24"])
        #expect(fromEnvironment.trustedProxies.networks.map(\.description) == ["127.0.0.1/32", "192.168.1.0/24"])
        do {
            _ = try load("", environment: ["JUICE_TRUSTED_PROXIES": "10.0.0.0/8,10.0.0.0/40"])
            Issue.record("a bad CIDR loaded")
        } catch let error as ConfigurationError {
            #expect(error.problems.first?.field == "trusted_proxies")
            #expect(error.description.contains("10.0.0.0/40"))
        }
        #expect(throws: ConfigurationError.self) { try load(#", "trusted_proxies": [42]"#) }
        #expect(try load(#", "require_nonce": true"#).requireNonce)
        #expect(try load("", environment: ["JUICE_REQUIRE_NONCE": "true"]).requireNonce)
        #expect(try load("").requireNonce == false)
        #expect(throws: ConfigurationError.self) { try load("", environment: ["JUICE_REQUIRE_NONCE": "sometimes"]) }
    }
}
