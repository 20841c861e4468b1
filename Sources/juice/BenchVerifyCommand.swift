import AppleSignIn
import ArgumentParser
import Crypto
import CryptoExtras
import Foundation
import JuiceEncodings

/// `juice bench verify`: identity-token verification throughput on one thread, next to the bare RSA check.
struct BenchVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify an Apple-shaped identity token N times on one thread; print rates as JSON."
    )

    @Option(help: "Verifications per round and measurement.")
    var count: Int = 20_000

    @Option(help: "Rounds; each measurement reports its best round.")
    var rounds: Int = 5

    /// At most ten million verifications a round (about five minutes on one core) and a hundred rounds.
    static let maximumCount = 10_000_000
    static let maximumRounds = 100

    func validate() throws {
        guard (1...Self.maximumCount).contains(count) else { throw ValidationError("--count must be between 1 and \(Self.maximumCount)") }
        guard (1...Self.maximumRounds).contains(rounds) else { throw ValidationError("--rounds must be between 1 and \(Self.maximumRounds)") }
    }

    func run() async throws {
        let (count, rounds) = (self.count, self.rounds)
        // Measure off the main actor: top-level code would add executor hops to every iteration.
        let result = try await Task.detached { try await BenchVerify(count: count, rounds: rounds).run() }.value
        print(result.jsonString())
    }
}

/// The measurement behind `juice bench verify`.
///
/// Each round alternates short blocks of the two measurements (``blockSize`` verifications each, a few
/// milliseconds), so that a bare block and the full block after it see the same machine. The ratio is the
/// median of the adjacent pairs' ratios and each rate the median of its blocks: on a shared machine a
/// burst of other work slows a few pairs, not one measurement's whole round, and the median leaves them out.
struct BenchVerify {
    let count: Int
    let rounds: Int

    /// Verifications per block: long enough for the clock (about 5 ms), short next to the machine's noise.
    static let blockSize = 250

    func run() async throws -> JSONValue {
        let fixture = try BenchTokenFixture()
        let verifier = try fixture.verifier()
        let code = fixture.code
        // Warm up both paths (key fetch, caches), then measure each.
        for _ in 0..<min(count, 200) {
            _ = try await verifier.verify(fixture.token, nonceClaim: fixture.nonce, authorizationCode: code)
            precondition(fixture.bareVerify())
        }
        var bareRates: [Double] = []
        var fullRates: [Double] = []
        var pairRatios: [Double] = []
        let progress = BenchProgress(label: "rounds", total: rounds)
        defer { progress.finish() }
        for _ in 0..<rounds {
            var remaining = count
            while remaining > 0 {
                let block = min(remaining, Self.blockSize)
                remaining -= block
                let bareStart = ContinuousClock.now
                for _ in 0..<block where !fixture.bareVerify() {
                    throw CLIError("the bare RSA check failed")
                }
                let bare = Double(block) / (ContinuousClock.now - bareStart).inSeconds
                let fullStart = ContinuousClock.now
                for _ in 0..<block {
                    _ = try await verifier.verify(fixture.token, nonceClaim: fixture.nonce, authorizationCode: code)
                }
                let full = Double(block) / (ContinuousClock.now - fullStart).inSeconds
                bareRates.append(bare)
                fullRates.append(full)
                pairRatios.append(full / bare)
            }
            progress.advance()
        }
        return .object([
            "count": .integer(Int64(count)),
            "rounds": .integer(Int64(rounds)),
            "full_verify_per_s": .number(Self.median(fullRates).rounded()),
            "bare_rsa_verify_per_s": .number(Self.median(bareRates).rounded()),
            "ratio": .number((Self.median(pairRatios) * 1000).rounded() / 1000),
        ])
    }

    /// The nearest-rank median of `values` (never empty here: `--count` is at least 1).
    static func median(_ values: [Double]) -> Double {
        LatencySummary.percentile(0.5, of: values.sorted())
    }
}

struct BenchTokenFixture {
    let key: _RSA.Signing.PrivateKey
    /// Created once: deriving it from the private key per call would rebuild its Montgomery context.
    let publicKey: _RSA.Signing.PublicKey
    let token: String
    let nonce = "a1c3d5e7f9b2d4f6a8c0e2a4c6e8a0b2d4f6a8c0e2a4c6e8a0b2d4f6a8c0e2a4"
    let code = "c1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d.0.nrsz.KqsrMl3Fz1eVUmaWsN2nCw"
    let now = Date()
    private let signingInput: [UInt8]
    private let signature: _RSA.Signing.RSASignature

    init() throws {
        key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        publicKey = key.publicKey
        let iat = Int64(now.timeIntervalSince1970)
        let header = #"{"kid":"W6WcOKB","alg":"RS256"}"#
        let codeHash = Base64URL.encode(SHA256.hash(data: Data(code.utf8)).prefix(16))
        let payload = """
            {"iss":"https://appleid.apple.com","aud":"com.example.apple-samplecode.juice","exp":\(iat + 86_400),"iat":\(iat),\
            "sub":"001872.a22fc8cc2d0a4d0bacaf109007e19351.0650","nonce":"\(nonce)","c_hash":"\(codeHash)",\
            "email":"x7k2m9q4pd@privaterelay.appleid.com","email_verified":"true","is_private_email":"true",\
            "auth_time":\(iat),"nonce_supported":true,"real_user_status":2}
            """
        let input = Base64URL.encode(header.utf8) + "." + Base64URL.encode(payload.utf8)
        signingInput = Array(input.utf8)
        signature = try key.signature(for: SHA256.hash(data: signingInput), padding: .insecurePKCS1v1_5)
        token = input + "." + Base64URL.encode(signature.rawRepresentation)
    }

    func jwks() throws -> Data {
        let primitives = try publicKey.getKeyPrimitives()
        let json =
            #"{"keys":[{"kty":"RSA","kid":"W6WcOKB","use":"sig","alg":"RS256","n":"\#(Base64URL.encode(primitives.modulus))","e":"\#(Base64URL.encode(primitives.publicExponent))"}]}"#
        return Data(json.utf8)
    }

    func verifier() throws -> IdentityTokenVerifier {
        let keys = AppleKeySet(source: StaticAppleKeySource(keySet: try JSONWebKeySet(jwks: jwks())))
        return IdentityTokenVerifier(keys: keys, audiences: ["com.example.apple-samplecode.juice"], time: .fixed(now))
    }

    /// The signature check alone: SHA-256 of the signing input and one RSA PKCS#1 v1.5 verification.
    func bareVerify() -> Bool {
        publicKey.isValidSignature(signature, for: SHA256.hash(data: signingInput), padding: .insecurePKCS1v1_5)
    }
}
