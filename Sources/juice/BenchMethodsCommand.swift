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

    @Option(help: "The Juice server, e.g. http://127.0.0.1:8080.")
    var server: String

    @Option(help: "The Apple ID emulator the server trusts (development mode: http://127.0.0.1:8081).")
    var emulator: String = "http://127.0.0.1:8081"

    @Option(help: "Sign-ins in flight at once, for each method.")
    var concurrency: Int = 16

    @Option(help: "Sign-ins to complete, for each method.")
    var count: Int = 1000

    @Option(
        name: .customLong("passkey-origin"),
        help:
            "The origin passkeys sign for: the server's public URL's (default: --server's). juice serve's is http://localhost:PORT unless --public-url."
    )
    var passkeyOrigin: String?

    @Flag(name: .customLong("server-only"), help: "Prepare each Apple and passkey sign-in's client side first; time only the server's step.")
    var serverOnly = false

    @Option(name: .customLong("reference-seconds"), help: "Seconds openssl speed spends on each of signing and verifying.")
    var referenceSeconds: Int = 3

    func validate() throws {
        guard (1...BenchSignIn.maximumConcurrency).contains(concurrency) else {
            throw ValidationError("--concurrency must be between 1 and \(BenchSignIn.maximumConcurrency)")
        }
        guard (1...BenchSignIn.maximumCount).contains(count) else {
            throw ValidationError("--count must be between 1 and \(BenchSignIn.maximumCount)")
        }
        guard BenchSignIn.baseURL(server) != nil else { throw ValidationError("--server must be an http(s) URL such as http://127.0.0.1:8080") }
        guard BenchSignIn.baseURL(emulator) != nil else { throw ValidationError("--emulator must be an http(s) URL such as http://127.0.0.1:8081") }
        if let passkeyOrigin, BenchSignIn.baseURL(passkeyOrigin) == nil {
            throw ValidationError("--passkey-origin must be an origin such as http://localhost:8080")
        }
        guard (1...OpenSSLSpeed.maximumSeconds).contains(referenceSeconds) else {
            throw ValidationError("--reference-seconds must be between 1 and \(OpenSSLSpeed.maximumSeconds)")
        }
    }

    func run() async throws {
        guard let serverBase = BenchSignIn.baseURL(server), let emulatorBase = BenchSignIn.baseURL(emulator) else {
            throw ValidationError("--server and --emulator must be http(s) URLs")
        }
        let reference = try await OpenSSLSpeed.measureECDSAP256(seconds: referenceSeconds)
        let apple = BenchSignIn(
            server: serverBase, emulator: emulatorBase, clientID: "com.example.apple-samplecode.juice",
            appleIDs: [EmulatorConfiguration.numberedEmail("appleseed@juice.test", 1)], password: "juice")
        let (count, concurrency, serverOnly, passkeyOrigin) = (count, concurrency, serverOnly, passkeyOrigin)
        let methods = try await BenchSignIn.withHTTPClient { httpClient -> [String: JSONValue] in
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
