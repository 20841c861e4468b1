import Crypto
import Foundation
import Testing

@testable import AppleSignInConformance

// Serialized: each run plays 30-odd cases and generates RSA keys; one at a time keeps the shared machine responsive for the other suites.
@Suite("juice conformance against backends it has never seen", .serialized)
struct ConformanceKitTests {
    static func backend(_ flaw: ToolkitBackend.Flaw?) throws -> ToolkitBackend {
        ToolkitBackend(port: try FreePort.pick(), kitPort: try FreePort.pick(), teamKey: P256.Signing.PrivateKey(), flaw: flaw)
    }

    static func run(_ backend: ToolkitBackend, options: ConformanceOptions? = nil) async throws -> ConformanceReport {
        let options = options ?? backend.options()
        return try await backend.serving { try await ConformanceRun(options: options).run() }
    }

    @Test("a correct backend passes every case, required and recommended, and the run exits 0")
    func correctBackendPasses() async throws {
        let report = try await Self.run(try Self.backend(nil))
        let failures = report.cases.filter { !$0.passed }.map { "\($0.id): \($0.observed) \($0.detail)" }
        #expect(failures == [])
        #expect(report.warnings == 0)
        #expect(report.failed == 0)
        #expect(report.exitCode == 0)
        #expect(report.cases.count >= 30)
        let ids = Set(report.cases.map(\.id))
        for required in [
            "sign-in", "returning-user", "booleans-as-strings", "key-rotation", "private-email", "id-token-bad-signature", "id-token-alg-none",
            "id-token-hs256-public-key", "id-token-unknown-kid", "id-token-wrong-issuer", "id-token-wrong-audience", "id-token-expired",
            "id-token-nonce-mismatch", "state-mismatch", "state-replay", "code-rejected-by-apple", "notification-bad-signature",
            "notification-wrong-audience", "id-token-code-hash-mismatch", "client-secret-lifetime",
        ] {
            #expect(ids.contains(required), "missing case \(required)")
        }
    }

    @Test(
        "each flawed backend fails exactly the required cases its flaw names; the report, JUnit and table say so; exit status 1",
        arguments: [
            (ToolkitBackend.Flaw.trustsTokenAudience, ["id-token-wrong-audience", "native-id-token-wrong-audience"]),
            (.neverRefreshesKeys, ["key-rotation"]),
            (.reusableState, ["state-replay"]),
            (.neverRedeemsCode, ["code-rejected-by-apple", "native-code-rejected-by-apple"]),
            (.strictBooleans, ["booleans-as-strings"]),
            // The kit posts as a browser does cross-site: without Lax cookies, so no web sign-in completes.
            // A 5xx or a timeout is a failure even where a refusal was expected.
            (.crashesOnUnsignedTokens, ["id-token-alg-none", "native-id-token-alg-none"]),
            (.slowOnExpiredTokens, ["id-token-expired"]),
            (.laxStateCookie, ["sign-in", "returning-user", "booleans-as-strings", "private-email", "state-replay", "key-rotation"]),
        ])
    func flawedBackendFails(flaw: ToolkitBackend.Flaw, expected: [String]) async throws {
        let report = try await Self.run(try Self.backend(flaw))
        let failedRequired = report.cases.filter { !$0.passed && $0.level == .required }
        #expect(Set(failedRequired.map(\.id)) == Set(expected), "\(failedRequired.map { "\($0.id): \($0.detail)" })")
        #expect(report.failed == expected.count)
        #expect(report.exitCode == 1)
        if flaw == .crashesOnUnsignedTokens { #expect(failedRequired.allSatisfy { $0.observed == "error" }) }
        if flaw == .slowOnExpiredTokens { #expect(failedRequired.allSatisfy { $0.observed == "timeout" }) }

        let json = try #require(try JSONSerialization.jsonObject(with: report.json()) as? [String: Any])
        #expect(Set(json.keys) == ["backend", "cases", "passed", "failed", "warnings"])
        #expect(json["failed"] as? Int == expected.count)
        let cases = try #require(json["cases"] as? [[String: Any]])
        #expect(cases.allSatisfy { Set($0.keys) == ["id", "title", "expect", "level", "observed", "passed", "detail"] })
        let first = try #require(cases.first { $0["id"] as? String == expected[0] })
        #expect(first["passed"] as? Bool == false)
        #expect(first["level"] as? String == "required")

        let junit = report.junit()
        #expect(junit.components(separatedBy: "<failure ").count - 1 == expected.count)
        #expect(junit.contains(#"name="\#(expected[0])""#))
        let table = report.table()
        let hint = try #require(report.cases.first { $0.id == expected[0] }?.hint)
        #expect(table.contains("fix: " + hint))
        #expect(table.contains("\(report.failed) failed"))
    }

    @Test("client secrets signed by a key other than the team key are refused by the kit's token endpoint, so sign-ins fail")
    func forgedClientSecrets() async throws {
        let backend = try Self.backend(nil)
        var options = backend.options()
        options.teamPublicKeyPEM = P256.Signing.PrivateKey().publicKey.pemRepresentation
        let report = try await Self.run(backend, options: options)
        let byID = Dictionary(uniqueKeysWithValues: report.cases.map { ($0.id, $0) })
        #expect(byID["sign-in"]?.passed == false)
        #expect(byID["native-sign-in"]?.passed == false)
        #expect(byID["client-secret-lifetime"]?.passed == false)
        #expect(byID["client-secret-lifetime"]?.detail.contains("signature does not verify") == true)
        #expect(report.exitCode == 1)
    }

    @Test("the kit's port is taken: the run cannot start, and says so")
    func portTaken() async throws {
        let backend = try Self.backend(nil)
        var options = backend.options()
        options.port = backend.port
        let error = await #expect(throws: ConformanceStartError.self) { try await Self.run(backend, options: options) }
        #expect(error?.reason.contains("could not serve Apple on port \(backend.port)") == true)
    }

    @Test("a backend that is not listening: the run cannot start, and says so")
    func unreachableBackend() async throws {
        let backend = try Self.backend(nil)
        let error = await #expect(throws: ConformanceStartError.self) { try await ConformanceRun(options: backend.options()).run() }
        #expect(error?.reason.contains("could not be reached") == true)
    }

    @Test("a start URL that does not redirect to the kit: the run cannot start, and says which URL answered what")
    func startDoesNotRedirect() async throws {
        let backend = try Self.backend(nil)
        var options = backend.options()
        options.startPath = "/me"
        let error = await #expect(throws: ConformanceStartError.self) { try await Self.run(backend, options: options) }
        #expect(error?.reason.contains("not a redirect to \(backend.kitURL)/auth/authorize") == true)
    }

    @Test("a backend configured with another Apple: the run cannot start and names the base URL to configure")
    func startRedirectsElsewhere() async throws {
        let backend = try Self.backend(nil)
        var options = backend.options()
        options.port = try FreePort.pick()
        let error = await #expect(throws: ConformanceStartError.self) { try await Self.run(backend, options: options) }
        #expect(error?.reason.contains("configure the backend to use http://127.0.0.1:\(options.port)") == true)
    }

    @Test("unusable options are refused before anything starts")
    func badOptions() async throws {
        let backend = try Self.backend(nil)
        var options = backend.options()
        options.port = 70_000
        await #expect(throws: ConformanceStartError("--port must be between 1 and 65535")) { try await ConformanceRun(options: options).run() }
        #expect(throws: ConformanceStartError.self) {
            try ConformanceOptions.teamPublicKeyPEM(fromPEM: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----")
        }
    }
}
