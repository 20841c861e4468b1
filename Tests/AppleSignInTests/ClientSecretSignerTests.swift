import Crypto
import Foundation
import JuiceEncodings
import Testing

@testable import AppleSignIn

@Suite("Client secrets: ES256, Apple's claims, six-month cap, caching and renewal")
struct ClientSecretSignerTests {
    let time = ManualTime()

    func signer(lifetime: TimeInterval = 3600) throws -> ClientSecretSigner {
        try ClientSecretSigner(teamID: "ABCDE12345", keyID: "KEY1234567", privateKey: TestKeys.team, lifetime: lifetime, time: time.source)
    }

    @Test("the secret is a JWT with Apple's header and claims and a raw R||S P-256 signature")
    func shape() async throws {
        let secret = try await signer().secret(for: "com.example.apple-samplecode.juice.web")
        let parts = secret.jwt.split(separator: ".")
        #expect(parts.count == 3)
        let header = try JSONParser.parse(Base64URL.decode(parts[0])!)
        let claims = try JSONParser.parse(Base64URL.decode(parts[1])!)
        #expect(header == .object(["alg": .string("ES256"), "kid": .string("KEY1234567")]))
        let iat = Int64(TokenForge.now.timeIntervalSince1970)
        #expect(
            claims
                == .object([
                    "iss": .string("ABCDE12345"), "iat": .integer(iat), "exp": .integer(iat + 3600),
                    "aud": .string("https://appleid.apple.com"), "sub": .string("com.example.apple-samplecode.juice.web"),
                ]))
        let signature = Base64URL.decode(parts[2])!
        #expect(signature.count == 64)
        let valid = TestKeys.team.publicKey.isValidSignature(
            try P256.Signing.ECDSASignature(rawRepresentation: signature),
            for: Array((parts[0] + "." + parts[1]).utf8)
        )
        #expect(valid)
        let forged = TestKeys.otherTeam.publicKey.isValidSignature(
            try P256.Signing.ECDSASignature(rawRepresentation: signature),
            for: Array((parts[0] + "." + parts[1]).utf8)
        )
        #expect(!forged)
    }

    @Test("a lifetime over 15,777,000 s, too short or not a number is refused; exactly six months is accepted")
    func lifetimeCap() throws {
        #expect(throws: ClientSecretError.self) { try signer(lifetime: 15_777_001) }
        #expect(throws: ClientSecretError.self) { try signer(lifetime: 30) }
        // Values no integer holds are refused with a message, not a trap.
        for hostile in [1e300, -1e300, .infinity, -.infinity, .nan] {
            #expect(throws: ClientSecretError.self) { try signer(lifetime: hostile) }
        }
        _ = try signer(lifetime: 15_777_000)
    }

    @Test("a secret is reused until a tenth of its life is left, then renewed; one per client id")
    func caching() async throws {
        let signer = try signer(lifetime: 3600)
        let first = try await signer.secret(for: "com.example.app.web")
        time.advance(by: 3000)
        #expect(try await signer.secret(for: "com.example.app.web") == first)
        let other = try await signer.secret(for: "com.example.app")
        #expect(other != first)
        time.advance(by: 300)
        let renewed = try await signer.secret(for: "com.example.app.web")
        #expect(renewed != first)
        #expect(renewed.expiresAt == time.now.addingTimeInterval(3600))
    }

    @Test("the secret never appears in its description")
    func redacted() async throws {
        let secret = try await signer().secret(for: "com.example.app.web")
        #expect(!"\(secret)".contains(secret.jwt.prefix(20)))
        #expect(!String(reflecting: secret).contains(secret.jwt.prefix(20)))
        #expect("\(secret)".contains("redacted"))
    }
}
