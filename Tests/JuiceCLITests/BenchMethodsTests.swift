import Foundation
import JuiceTestSupport
import Testing

@testable import juice

/// `juice bench signin --method password|passkey` and `juice bench methods` against a real
/// `juice serve`: every sign-in succeeds, and a passkey signing for the wrong origin is reported.
@Suite("juice bench: password and passkey sign-ins, all three methods beside openssl speed")
struct BenchMethodsTests {
    /// The JSON object on the last line of `stdout`.
    static func lastJSON(_ stdout: String) throws -> [String: Any] {
        let line = try #require(stdout.split(separator: "\n").last)
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// `juice serve` whose public URL is the one the bench talks to (passkeys sign for that origin):
    /// `ServeProcess` gives `--public-url` its own URL (given twice, the option would be a usage error).
    static func serve() throws -> ServeProcess {
        try ServeProcess()
    }

    @Test("--method password: one account, then every POST /api/auth/password succeeds", .timeLimit(.minutes(2)))
    func password() async throws {
        let serve = try Self.serve()
        defer { serve.stop() }
        try await serve.start()
        let result = try await JuiceProcess.run(
            ["bench", "signin", "--method", "password", "--server", serve.url, "--count", "4", "--concurrency", "2"], timeout: .seconds(90))
        #expect(result.status == 0, "\(result.stderr)")
        let json = try Self.lastJSON(result.stdout)
        #expect(json["method"] as? String == "password")
        #expect(json["succeeded"] as? Int == 4 && json["failed"] as? Int == 0)
    }

    @Test(
        "--method passkey: a passkey per worker, then every sign-in succeeds, complete and --server-only (counters never collide)",
        .timeLimit(.minutes(3)))
    func passkey() async throws {
        let serve = try Self.serve()
        defer { serve.stop() }
        try await serve.start()
        for mode in [[], ["--server-only"]] {
            let result = try await JuiceProcess.run(
                ["bench", "signin", "--method", "passkey", "--server", serve.url, "--count", "9", "--concurrency", "3"] + mode,
                timeout: .seconds(90))
            #expect(result.status == 0, "\(result.stderr)")
            let json = try Self.lastJSON(result.stdout)
            #expect(json["method"] as? String == "passkey")
            #expect(json["mode"] as? String == (mode.isEmpty ? "complete" : "server-only"))
            #expect(json["passkeys"] as? Int == 3)
            #expect(json["succeeded"] as? Int == 9 && json["failed"] as? Int == 0, "\(json)")
        }
    }

    @Test("passkeys signing for another origin than the server's public URL are refused, and the bench says why", .timeLimit(.minutes(2)))
    func wrongOrigin() async throws {
        let serve = try Self.serve()
        defer { serve.stop() }
        try await serve.start()
        let result = try await JuiceProcess.run(
            ["bench", "signin", "--method", "passkey", "--server", serve.url, "--passkey-origin", "http://localhost:1", "--count", "1"],
            timeout: .seconds(90))
        #expect(result.status == 1)
        #expect(result.stderr.contains("origin_mismatch"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("juice bench methods: Apple, password and passkey runs, openssl speed ecdsap256 and each ratio in one line", .timeLimit(.minutes(3)))
    func methods() async throws {
        let serve = try Self.serve()
        defer { serve.stop() }
        try await serve.start()
        let result = try await JuiceProcess.run(
            [
                "bench", "methods", "--server", serve.url, "--emulator", serve.emulatorURL, "--count", "3", "--concurrency", "1",
                "--reference-seconds", "1",
            ], timeout: .seconds(150))
        #expect(result.status == 0, "\(result.stderr)")
        let json = try Self.lastJSON(result.stdout)
        let methods = try #require(json["methods"] as? [String: [String: Any]])
        for method in ["apple", "password", "passkey"] {
            #expect(methods[method]?["succeeded"] as? Int == 3, "\(method): \(methods[method] ?? [:])")
        }
        let reference = try #require(json["reference"] as? [String: Any])
        let verifications = try #require(reference["openssl_ecdsap256_verify_per_s"] as? Double)
        #expect(verifications > 0)
        let ratios = try #require(json["ratios"] as? [String: Double])
        let passkeyRate = try #require(methods["passkey"]?["sign_ins_per_s"] as? Double)
        let ratio = try #require(ratios["passkey_per_p256_verify"])
        #expect(abs(ratio - passkeyRate / verifications) < 0.0001)
        #expect(Set(ratios.keys) == ["apple_per_p256_verify", "password_per_p256_verify", "passkey_per_p256_verify"])
    }

    @Test("openssl speed -mr: the +F4 line's rates are read; anything else is no reading")
    func openSSLOutput() {
        let output = "+DTP:256:sign:ecdsa:1\n+R5:23651:256:0.99\n+DTP:256:verify:ecdsa:1\n+R6:8866:256:1.00\n+F4:3:256:23889.898990:8866.000000\n"
        #expect(OpenSSLSpeed.parse(output) == OpenSSLSpeed(signaturesPerSecond: 23889.89899, verificationsPerSecond: 8866))
        for hostile in [
            "", "+F4:3:256", "+F4:3:384:1:2", "+F4:3:256:nan:5", "+F4:3:256:inf:5", "+F4:3:256:-1:5", "+F4:3:256:1:0", "+F4:3:256:x:y",
            "F4:3:256:1:2", "+F4:3:256:1:2:3",
        ] {
            #expect(OpenSSLSpeed.parse(hostile) == nil, "\(hostile)")
        }
    }

    @Test(
        "bad arguments exit non-zero naming the option",
        arguments: [
            (["signin", "--server", "http://127.0.0.1:8080", "--method", "carrier-pigeon"], "--method"),
            (["signin", "--server", "http://127.0.0.1:8080", "--passkey-origin", "not an origin"], "--passkey-origin"),
            (["methods", "--server", "http://127.0.0.1:8080", "--reference-seconds", "0"], "--reference-seconds"),
            (["methods", "--server", "http://127.0.0.1:8080", "--reference-seconds", "61"], "--reference-seconds"),
            (["methods", "--server", "http://127.0.0.1:8080", "--count", "0"], "--count"),
            (["methods"], "--server"),
        ]
    )
    func validation(arguments: [String], option: String) async throws {
        let result = try await JuiceProcess.run(["bench"] + arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(option), "\(result.stderr)")
    }
}
