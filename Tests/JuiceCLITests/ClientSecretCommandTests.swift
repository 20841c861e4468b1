import Crypto
import Foundation
import JuiceTestSupport
import Testing

@Suite("juice client-secret")
final class ClientSecretCommandTests {
    let key = P256.Signing.PrivateKey()
    let temporary: TemporaryDirectory
    let keyFile: URL

    init() throws {
        temporary = try TemporaryDirectory("client-secret")
        keyFile = try temporary.writePrivate("AuthKey_KEY1234567.p8", key.pemRepresentation)
    }

    deinit { temporary.remove() }

    func decode(_ segment: Substring) throws -> [String: Any] {
        var base64 = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let data = try #require(Data(base64Encoded: base64))
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("prints a JWT Apple accepts: ES256, kid, iss, sub, aud, lifetime, valid signature")
    func prints() async throws {
        let result = try await JuiceProcess.run([
            "client-secret", "--team-id", "ABCDE12345", "--client-id", "com.example.app.web", "--key-id", "KEY1234567", "--key", keyFile.path,
            "--lifetime", "86400",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let jwt = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = jwt.split(separator: ".")
        #expect(parts.count == 3)
        let header = try decode(parts[0])
        let claims = try decode(parts[1])
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == "KEY1234567")
        #expect(claims["iss"] as? String == "ABCDE12345")
        #expect(claims["sub"] as? String == "com.example.app.web")
        #expect(claims["aud"] as? String == "https://appleid.apple.com")
        #expect((claims["exp"] as? Int ?? 0) - (claims["iat"] as? Int ?? 0) == 86400)
        var signature = String(parts[2]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while signature.count % 4 != 0 { signature += "=" }
        let raw = try #require(Data(base64Encoded: signature))
        #expect(key.publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: raw), for: Data((parts[0] + "." + parts[1]).utf8)))
    }

    @Test("a lifetime over six months or not a number, a bad team id or an unreadable key exits 1 with a readable message and no key material")
    func refusals() async throws {
        let tooLong = try await JuiceProcess.run([
            "client-secret", "--team-id", "ABCDE12345", "--client-id", "a", "--key-id", "KEY1234567", "--key", keyFile.path, "--lifetime", "15777001",
        ])
        #expect(tooLong.status == 1)
        #expect(tooLong.stderr.contains("six months"))
        for hostile in ["1e300", "nan", "inf"] {
            let refused = try await JuiceProcess.run([
                "client-secret", "--team-id", "ABCDE12345", "--client-id", "a", "--key-id", "KEY1234567", "--key", keyFile.path, "--lifetime",
                hostile,
            ])
            #expect(refused.status == 1, "--lifetime \(hostile) trapped or was accepted")
            #expect(refused.stderr.contains("six months"))
        }
        let badTeam = try await JuiceProcess.run([
            "client-secret", "--team-id", "ABC", "--client-id", "a", "--key-id", "KEY1234567", "--key", keyFile.path,
        ])
        #expect(badTeam.status == 1)
        #expect(badTeam.stderr.contains("--team-id"))
        let noKey = try await JuiceProcess.run([
            "client-secret", "--team-id", "ABCDE12345", "--client-id", "a", "--key-id", "KEY1234567", "--key", "/nonexistent.p8",
        ])
        #expect(noKey.status == 1)
        #expect(noKey.stderr.contains("--key"))
        #expect(!noKey.stderr.contains("BEGIN"))
    }
}
