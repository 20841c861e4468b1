import AppleSignIn
import Benchmark
import Crypto
import Foundation

/// The toolkit's per-sign-in CPU work, measured in instructions (where the kernel exposes hardware
/// counters) and allocations — stable on a shared machine, unlike wall time, which is left out so that
/// `thresholds update` records nothing a busy machine would break: one identity-token verification (RS256 + the claim policies,
/// as the server does twice per sign-in) and one client-secret signature (ES256, once per code
/// exchange when the signer's cache is cold). Thresholds: `Thresholds/`.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.instructions, .mallocCountTotal],
        thresholds: [
            // Instructions are repeatable for one binary; 5% absorbs toolchain and dependency patch releases.
            .instructions: .init(relative: [.p90: 5]),
            // A few allocations either way are noise; more means a new copy on the hot path.
            .mallocCountTotal: .init(relative: [.p90: 5], absolute: [.p90: 3]),
        ]
    )

    Benchmark("IdentityTokenVerifyRS256") { benchmark, fixture in
        for _ in benchmark.scaledIterations {
            blackHole(try await fixture.verifier.verify(fixture.token, nonce: fixture.nonce, authorizationCode: fixture.code))
        }
    } setup: {
        try await TokenFixture()
    }

    Benchmark("ClientSecretSignES256") { benchmark, key in
        for _ in benchmark.scaledIterations {
            // A new signer each time: its cache would otherwise answer without signing.
            let signer = try ClientSecretSigner(teamID: "JUICEDEV01", keyID: "BENCHKEY01", privateKey: key)
            blackHole(try await signer.secret(for: "com.example.apple-samplecode.juice"))
        }
    } setup: {
        P256.Signing.PrivateKey()
    }
}
