import Foundation
import JuiceProcesses

/// `openssl speed -mr -seconds S ecdsap256`: this machine's P-256 ECDSA signatures and verifications
/// per second on one core (OpenSSL's own loop, its CPU time), the reference `juice bench methods`
/// reports its sign-in rates against.
struct OpenSSLSpeed: Sendable, Equatable {
    let signaturesPerSecond: Double
    let verificationsPerSecond: Double

    /// The most seconds `--reference-seconds` accepts.
    static let maximumSeconds = 60

    /// Runs `openssl speed` (found on `PATH`) for `seconds` per operation (stopped if it runs past
    /// twice that and a minute).
    static func measureECDSAP256(seconds: Int) async throws(BenchSignInError) -> OpenSSLSpeed {
        guard let openssl = SpawnedChild.locate("openssl") else {
            throw BenchSignInError(kind: "reference", "openssl is not on PATH (install the openssl package)")
        }
        // A child of its own with an empty signal mask: openssl speed times each test with SIGALRM.
        let outcome: SpawnedChild.Completed
        do {
            outcome = try await SpawnedChild.run(
                openssl, ["speed", "-mr", "-seconds", String(seconds), "ecdsap256"], deadline: .seconds(2 * seconds + 60))
        } catch {
            throw BenchSignInError(kind: "reference", "cannot run openssl (install the openssl package): \(error)")
        }
        guard outcome.exit == .exited(0), let speed = parse(outcome.outputText) else {
            throw BenchSignInError(
                kind: "reference",
                "openssl speed -mr ecdsap256 " + (outcome.exit.status.map { "exited with status \($0)" } ?? "was stopped")
                    + " without a +F4 line")
        }
        return speed
    }

    /// The rates in `openssl speed -mr` output: its `+F4:<n>:256:<signs/s>:<verifications/s>` line.
    static func parse(_ output: String) -> OpenSSLSpeed? {
        for line in output.split(whereSeparator: \.isNewline) where line.hasPrefix("+F4:") {
            let fields = line.split(separator: ":")
            guard fields.count == 5, fields[2] == "256", let sign = Double(fields[3]), let verify = Double(fields[4]),
                sign.isFinite, verify.isFinite, sign > 0, verify > 0
            else { return nil }
            return OpenSSLSpeed(signaturesPerSecond: sign, verificationsPerSecond: verify)
        }
        return nil
    }
}
