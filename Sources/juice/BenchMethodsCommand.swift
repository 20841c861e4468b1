import AppleIDEmulator
import AppleSignIn
import ArgumentParser
import JuiceEncodings

/// `juice bench methods`: the three sign-ins one after the other against one running server — Apple,
/// password, passkey — beside `openssl speed ecdsap256` measured in the same run, as one JSON line.
///
/// Each method gets the same `--count` and `--concurrency`; the reference runs first, while the
/// server is idle. The ratios divide each method's sign-ins per second by OpenSSL's P-256
/// verifications per second on one core: a passkey sign-in verifies one P-256 signature, so its
/// ratio says how much of a core's verifying power one sign-in costs, all of the server's other work
/// (HTTP, the challenge's round trip to the database, the session) included.
struct BenchMethodsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "methods",
        abstract: "Apple, password and passkey sign-ins against one server, next to openssl speed ecdsap256; print one JSON line."
    )

    @OptionGroup var load: BenchLoadOptions

    @Option(name: .customLong("reference-seconds"), help: "Seconds openssl speed spends on each of signing and verifying.")
    var referenceSeconds: Int = 3

    func validate() throws {
        guard (1...OpenSSLSpeed.maximumSeconds).contains(referenceSeconds) else {
            throw ValidationError("--reference-seconds must be between 1 and \(OpenSSLSpeed.maximumSeconds)")
        }
    }

    func run() async throws {
        let (serverBase, emulatorBase) = (load.serverBase, load.emulatorBase)
        let reference = try await OpenSSLSpeed.measureECDSAP256(seconds: referenceSeconds)
        let apple = BenchSignIn(
            server: serverBase, emulator: emulatorBase, clientID: "com.example.apple-samplecode.juice",
            appleIDs: [EmulatorConfiguration.numberedEmail("appleseed@juice.test", 1)], password: "juice")
        let (count, concurrency, serverOnly, passkeyOrigin) = (load.count, load.concurrency, load.serverOnly, load.passkeyOrigin)
        let methods = try await BenchCPUTime.$serverProcessID.withValue(load.serverPID) {
            try await BenchSignIn.withBenchClient(concurrency: concurrency) { httpClient -> [String: JSONValue] in
                [
                    BenchMethod.apple.rawValue: serverOnly
                        ? try await apple.runServerOnly(count: count, concurrency: concurrency, httpClient: httpClient)
                        : try await apple.run(count: count, concurrency: concurrency, httpClient: httpClient),
                    BenchMethod.password.rawValue: try await BenchPasswordSignIn(server: serverBase).run(
                        count: count, concurrency: concurrency, httpClient: httpClient),
                    BenchMethod.passkey.rawValue: try await BenchPasskeySignIn(server: serverBase, origin: passkeyOrigin).run(
                        count: count, concurrency: concurrency, serverOnly: serverOnly, httpClient: httpClient),
                ]
            }
        }
        print(Self.summary(methods: methods, reference: reference).jsonString())
    }

    /// The JSON line: each method's run, the reference, and each method's sign-ins per second divided
    /// by the reference's verifications per second (rounded to four places).
    static func summary(methods: [String: JSONValue], reference: OpenSSLSpeed) -> JSONValue {
        var ratios: [String: JSONValue] = [:]
        for (name, run) in methods {
            guard case .object(let fields) = run, case .number(let rate)? = fields["sign_ins_per_s"] else { continue }
            ratios[name + "_per_p256_verify"] = .number((rate / reference.verificationsPerSecond * 10_000).rounded() / 10_000)
        }
        return .object([
            "methods": .object(methods),
            "reference": .object([
                "openssl_ecdsap256_sign_per_s": .number(reference.signaturesPerSecond.rounded()),
                "openssl_ecdsap256_verify_per_s": .number(reference.verificationsPerSecond.rounded()),
            ]),
            "ratios": .object(ratios),
        ])
    }
}
