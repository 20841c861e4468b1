import Foundation
import JuiceEncodings
import Testing

@testable import AppleSignIn

@Suite("Apple key set: caching, rotation, flood control, outages")
struct AppleKeySetTests {
    /// The key endpoint of a test server. Its deadline is a minute rather than the default ten seconds:
    /// at the start of a full parallel run, on two cores, a first fetch has taken longer than ten.
    static func source(_ baseURL: String) -> HTTPAppleKeySource {
        HTTPAppleKeySource(url: baseURL + "/auth/keys", timeout: .seconds(60))
    }

    let claims = TokenForge.appleClaims()

    func verifier(_ keys: AppleKeySet, time: ManualTime) -> IdentityTokenVerifier {
        IdentityTokenVerifier(keys: keys, audiences: [TokenForge.audience], time: time.source)
    }

    @Test("a token signed with a newly rotated key triggers exactly one refetch, then verifies")
    func rotation() async throws {
        let server = JWKSServer(document: TestKeys.jwks([("A", TestKeys.appleA)]))
        try await withLiveServer(server.router) { baseURL in
            let time = ManualTime()
            let keys = AppleKeySet(source: Self.source(baseURL), minimumRefetchInterval: .seconds(10), time: time.source)
            let verifier = verifier(keys, time: time)
            _ = try await verifier.verify(TokenForge.rs256(claims, key: TestKeys.appleA, kid: "A"))
            #expect(server.fetches == 1)

            server.serve(TestKeys.jwks([("B", TestKeys.appleB), ("A", TestKeys.appleA)]))
            time.advance(by: 11)
            let rotated = try await verifier.verify(TokenForge.rs256(claims, key: TestKeys.appleB, kid: "B"))
            #expect(rotated.subject == "001872.a22fc8cc2d0a4d0bacaf109007e19351.0650")
            #expect(server.fetches == 2)
            _ = try await verifier.verify(TokenForge.rs256(claims, key: TestKeys.appleB, kid: "B"))
            #expect(server.fetches == 2)
        }
    }

    @Test("a burst of 1,000 unknown key ids costs at most a handful of fetches")
    func unknownKidFlood() async throws {
        let server = JWKSServer(document: TestKeys.jwks([("A", TestKeys.appleA)]))
        try await withLiveServer(server.router) { baseURL in
            let time = ManualTime()
            let keys = AppleKeySet(source: Self.source(baseURL), time: time.source)
            let verifier = verifier(keys, time: time)
            _ = try await verifier.verify(TokenForge.rs256(claims))
            let forged = (0..<1000).map { TokenForge.rs256(claims, key: TestKeys.attacker, kid: "kid-\($0)") }
            let refusals = await withTaskGroup(of: TokenVerificationError.Code?.self) { group in
                for token in forged {
                    group.addTask {
                        do {
                            _ = try await verifier.verify(token)
                            return nil
                        } catch let error as TokenVerificationError {
                            return error.code
                        } catch {
                            return nil
                        }
                    }
                }
                return await group.reduce(into: [TokenVerificationError.Code?]()) { $0.append($1) }
            }
            #expect(refusals.count == 1000)
            #expect(refusals.allSatisfy { $0 == .unknownKey })
            #expect(server.fetches <= 3)
        }
    }

    @Test("unknown kids arriving over time refetch at most once per minimum interval")
    func refetchInterval() async throws {
        let server = JWKSServer(document: TestKeys.jwks([("A", TestKeys.appleA)]))
        try await withLiveServer(server.router) { baseURL in
            let time = ManualTime()
            let keys = AppleKeySet(source: Self.source(baseURL), minimumRefetchInterval: .seconds(10), time: time.source)
            let verifier = verifier(keys, time: time)
            _ = try await verifier.verify(TokenForge.rs256(claims))
            for second in 0..<30 {
                time.advance(by: 1)
                await #expect(throws: TokenVerificationError(.unknownKey, "")) {
                    try await verifier.verify(TokenForge.rs256(claims, kid: "nope-\(second)"))
                }
            }
            // One initial fetch plus one per 10 s window.
            #expect(server.fetches == 4)
        }
    }

    @Test("when the key endpoint is down, the last good keys keep working after the cache expires")
    func outageKeepsLastGoodKeys() async throws {
        let server = JWKSServer(document: TestKeys.jwks([("A", TestKeys.appleA)]), cacheControl: "public, max-age=300")
        try await withLiveServer(server.router) { baseURL in
            let time = ManualTime()
            let keys = AppleKeySet(source: Self.source(baseURL), time: time.source)
            let verifier = verifier(keys, time: time)
            _ = try await verifier.verify(TokenForge.rs256(claims))
            server.setFailing(true)
            time.advance(by: 3600)
            let token = try await verifier.verify(TokenForge.rs256(TokenForge.appleClaims(now: time.now)))
            #expect(token.audience == TokenForge.audience)
            #expect(server.fetches == 2)
        }
    }

    @Test("Cache-Control max-age decides when the key set is fetched again")
    func honoursMaxAge() async throws {
        let server = JWKSServer(document: TestKeys.jwks([("A", TestKeys.appleA)]), cacheControl: "max-age=120, must-revalidate")
        try await withLiveServer(server.router) { baseURL in
            let time = ManualTime()
            let keys = AppleKeySet(source: Self.source(baseURL), time: time.source)
            let verifier = verifier(keys, time: time)
            _ = try await verifier.verify(TokenForge.rs256(claims))
            time.advance(by: 100)
            _ = try await verifier.verify(TokenForge.rs256(claims))
            #expect(server.fetches == 1)
            time.advance(by: 30)
            _ = try await verifier.verify(TokenForge.rs256(claims))
            #expect(server.fetches == 2)
        }
    }

    @Test("no keys and an unreachable endpoint is keys_unavailable, not a verdict on the token")
    func nothingCached() async throws {
        let server = JWKSServer(document: "")
        server.setFailing(true)
        try await withLiveServer(server.router) { baseURL in
            let time = ManualTime()
            let keys = AppleKeySet(source: Self.source(baseURL), time: time.source)
            await #expect(throws: TokenVerificationError(.keysUnavailable, "")) {
                try await verifier(keys, time: time).verify(TokenForge.rs256(claims))
            }
        }
    }

    @Test("only RSA RS256 signing keys are taken from a JWKS")
    func onlyRS256Keys() throws {
        let document = JSONValue.object([
            "keys": .array([
                TestKeys.jwk(TestKeys.appleA, kid: "good"),
                TestKeys.jwk(TestKeys.appleA, kid: "no-alg", alg: nil, use: nil),
                TestKeys.jwk(TestKeys.appleA, kid: "rs384", alg: "RS384"),
                TestKeys.jwk(TestKeys.appleA, kid: "enc", use: "enc"),
                TestKeys.jwk(TestKeys.appleA, kid: "ec", kty: "EC"),
                .object(["kty": .string("RSA"), "kid": .string("short"), "alg": .string("RS256"), "n": .string("AQAB"), "e": .string("AQAB")]),
            ])
        ]).jsonString()
        let keySet = try JSONWebKeySet(jwks: Array(document.utf8))
        #expect(keySet.keyIDs == ["good", "no-alg"])
        #expect(throws: KeySetError(.noUsableKey, "the key set holds no RSA RS256 signing key")) {
            try JSONWebKeySet(jwks: Array(#"{"keys":[]}"#.utf8))
        }
        let malformed = try #require(throws: KeySetError.self) { try JSONWebKeySet(jwks: Array("<html>".utf8)) }
        #expect(malformed.code == .malformed)
    }

    @Test("Cache-Control parsing")
    func cacheControlParsing() {
        #expect(HTTPAppleKeySource.maxAge(fromCacheControl: "max-age=86400") == .seconds(86400))
        #expect(HTTPAppleKeySource.maxAge(fromCacheControl: "public, max-age=\"60\"") == .seconds(60))
        #expect(HTTPAppleKeySource.maxAge(fromCacheControl: "no-store") == .zero)
        #expect(HTTPAppleKeySource.maxAge(fromCacheControl: "private") == nil)
        #expect(HTTPAppleKeySource.maxAge(fromCacheControl: "max-age=-5") == nil)
    }
}
