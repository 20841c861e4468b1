import Crypto
import Foundation
import JuiceTestSupport
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

    @Test("a backend whose session cookie a browser would drop (Domain of another site) fails its sign-ins, and the detail says why")
    func sessionCookieForOtherDomain() async throws {
        let report = try await Self.run(try Self.backend(.sessionCookieForOtherDomain))
        let signIn = try #require(report.cases.first { $0.id == "sign-in" })
        #expect(signIn.verdict == .failed)
        #expect(signIn.detail.contains("not signed in; a browser would have dropped: sid: Domain=juice.example does not domain-match 127.0.0.1"))
        #expect(report.exitCode == 1)
    }

    @Test("a correct backend passes every case, required and recommended, and the run exits 0")
    func correctBackendPasses() async throws {
        let report = try await Self.run(try Self.backend(nil))
        let notPassed = report.cases.filter { $0.verdict != .passed }.map { "\($0.id): \($0.verdict.rawValue) \($0.observed) \($0.detail)" }
        #expect(notPassed == [])
        #expect(report.warnings == 0)
        #expect(report.failed == 0)
        #expect(report.exitCode == 0)
        #expect(report.cases.count == ConformanceCatalog.all.count)
        // The toolkit checks the form_post token (with its c_hash) and only redeems the code.
        #expect(report.channel.hasPrefix("the form_post id_token"))
        let ids = Set(report.cases.map(\.id))
        for required in [
            "sign-in", "returning-user", "booleans-as-strings", "key-rotation", "private-email", "private-email-icloud", "user-email-differs",
            "id-token-bad-signature", "id-token-alg-none", "id-token-hs256-public-key", "id-token-unknown-kid", "id-token-wrong-issuer",
            "id-token-wrong-audience", "id-token-expired", "id-token-nonce-mismatch", "state-mismatch", "state-replay", "code-rejected-by-apple",
            "notification-bad-signature", "notification-wrong-audience", "id-token-code-hash-mismatch", "client-secret-lifetime",
            "authorization-request-nonce", "id-token-issued-seconds-ahead", "account-deletion-revokes", "consent-revoked-ends-session",
            "account-delete-ends-session", "notification-issuer-drift", "notification-keys-unavailable",
        ] {
            #expect(ids.contains(required), "missing case \(required)")
        }
        #expect(report.cases.allSatisfy { !$0.reference.isEmpty && !$0.fix.isEmpty })
    }

    /// What a flawed backend's report must show: the FAILED cases, the WARNING cases, and the cases
    /// that cannot be judged because the baseline sign-in never succeeded.
    struct Expected: Sendable, CustomTestStringConvertible {
        let flaw: ToolkitBackend.Flaw
        let failed: [String]
        var warnings: [String] = []
        var inconclusive: Set<String> = []
        var testDescription: String { "\(flaw)" }
    }

    static let webRefusals = Set(
        ConformanceCatalog.web.filter { $0.expect == .refuse && $0.id != "state-replay" }.map(\.id) + [
            "id-token-code-hash-mismatch", "id-token-nonce-missing", "id-token-issued-in-future",
        ])

    @Test(
        "each flawed backend gets exactly the verdicts its flaw names; the report, JUnit and table say so",
        arguments: [
            Expected(flaw: .trustsTokenAudience, failed: ["id-token-wrong-audience", "native-id-token-wrong-audience", "several-audiences"]),
            Expected(flaw: .neverRefreshesKeys, failed: ["key-rotation", "native-key-rotation"]),
            // It refetches, but only after its cooldown: a weakness (WARNING with the delay), never the flaw of never refetching.
            Expected(flaw: .refetchesKeysLate, failed: [], warnings: ["key-rotation", "native-key-rotation"]),
            Expected(flaw: .reusableState, failed: ["state-replay"]),
            // Without a redeemed code there is no refresh token to revoke, and no client secret to judge.
            Expected(
                flaw: .neverRedeemsCode,
                failed: [
                    "code-rejected-by-apple", "native-code-rejected-by-apple", "native-token-without-code", "native-token-replay",
                    "native-apple-unavailable", "native-apple-slow", "account-deletion-revokes", "web-apple-unavailable", "web-apple-slow",
                    "web-apple-invalid-client", "web-apple-malformed-answer", "native-apple-invalid-client", "native-apple-malformed-answer",
                ],
                inconclusive: ["client-secret-lifetime"]),
            Expected(flaw: .requiresEmail, failed: ["native-no-email"]),
            Expected(flaw: .issuerFromDiscovery, failed: ["native-issuer-drift", "web-issuer-drift", "notification-issuer-drift"]),
            // A recommended case: missed, it is a warning.
            Expected(flaw: .eventsStringOnly, failed: [], warnings: ["notification-events-object"]),
            // Any failed redemption crashes it: Apple's refusal of the code (also a replayed one) and Apple's outage alike.
            Expected(
                flaw: .crashesWhenAppleFails, failed: [],
                warnings: [
                    "native-code-rejected-by-apple", "native-apple-unavailable", "native-apple-slow", "native-token-replay",
                    "native-apple-invalid-client", "native-apple-malformed-answer",
                ]),
            // It refuses, but only when the kit's answer comes, past the bound: a stall, a warning.
            Expected(flaw: .waitsOnApple, failed: [], warnings: ["native-apple-slow", "web-apple-slow"]),
            // Its iOS app's tokens are refused: every native sign-in fails, so every native refusal proves nothing.
            Expected(
                flaw: .oneAudience,
                failed: ConformanceCatalog.nativeCases.filter { $0.expect == .accept }.map(\.id) + ["several-audiences", "native-key-rotation"],
                inconclusive: Set(
                    ConformanceCatalog.nativeCases.filter { $0.expect == .refuse }.map(\.id) + ["native-keys-unavailable", "native-keys-slow"])),
            Expected(flaw: .strictBooleans, failed: ["booleans-as-strings"]),
            // A 5xx or a stall on hostile input refuses it, but badly: a warning, not a failure.
            Expected(flaw: .crashesOnUnsignedTokens, failed: [], warnings: ["id-token-alg-none", "native-id-token-alg-none"]),
            Expected(flaw: .slowOnExpiredTokens, failed: [], warnings: ["id-token-expired"]),
            Expected(flaw: .keepsTokensOnDeletion, failed: ["account-deletion-revokes"]),
            Expected(flaw: .ignoresConsentRevoked, failed: ["consent-revoked-ends-session", "account-delete-ends-session"]),
            // The kit posts as a browser does cross-site: without Lax cookies, so no web sign-in completes;
            // every web refusal is then INCONCLUSIVE, never PASSED.
            Expected(
                flaw: .laxStateCookie,
                failed: [
                    "sign-in", "returning-user", "booleans-as-strings", "private-email", "private-email-icloud", "private-email-icloud-com",
                    "user-email-differs", "key-rotation", "web-issuer-drift", "web-no-email",
                ],
                warnings: ["id-token-issued-seconds-ahead"],
                inconclusive: webRefusals.union([
                    "state-replay", "account-deletion-revokes", "consent-revoked-ends-session", "account-delete-ends-session",
                    "several-audiences", "web-keys-unavailable", "web-keys-slow",
                ])),
        ])
    func flawedBackend(expected: Expected) async throws {
        let report = try await Self.run(try Self.backend(expected.flaw))
        func ids(_ verdict: ConformanceVerdict) -> Set<String> { Set(report.cases.filter { $0.verdict == verdict }.map(\.id)) }
        let described = report.cases.filter { $0.verdict != .passed }.map { "\($0.id): \($0.verdict.rawValue) \($0.detail)" }
        #expect(ids(.failed) == Set(expected.failed), "\(described)")
        #expect(ids(.warning) == Set(expected.warnings), "\(described)")
        #expect(ids(.inconclusive) == expected.inconclusive, "\(described)")
        #expect(ids(.skipped) == [])
        #expect(report.failed == expected.failed.count)
        #expect(report.exitCode == (expected.failed.isEmpty ? 0 : 1))
        if expected.flaw == .crashesOnUnsignedTokens { #expect(report.cases.filter { $0.verdict == .warning }.allSatisfy { $0.observed == "error" }) }
        if expected.flaw == .slowOnExpiredTokens { #expect(report.cases.filter { $0.verdict == .warning }.allSatisfy { $0.observed == "timeout" }) }

        let json = try #require(try JSONSerialization.jsonObject(with: report.json()) as? [String: Any])
        #expect(Set(json.keys) == ["catalog", "backend", "channel", "cases", "passed", "failed", "warnings", "inconclusive", "skipped"])
        #expect(json["catalog"] as? String == ConformanceCatalog.version)
        #expect(report.table().contains("Catalogue: \(ConformanceCatalog.version)") && report.html().contains(ConformanceCatalog.version))
        #expect(report.junit().contains(#"<property name="catalog" value="\#(ConformanceCatalog.version)"/>"#))
        #expect(json["failed"] as? Int == expected.failed.count)
        let cases = try #require(json["cases"] as? [[String: Any]])
        #expect(cases.allSatisfy { Set($0.keys) == ["id", "title", "expect", "level", "observed", "verdict", "detail", "fix", "reference"] })
        let junit = report.junit()
        #expect(junit.components(separatedBy: "<failure ").count - 1 == expected.failed.count)
        #expect(junit.components(separatedBy: "<skipped ").count - 1 == expected.inconclusive.count)
        let table = report.table()
        #expect(table.contains("\(report.failed) failed"))
        guard let first = expected.failed.first ?? expected.warnings.first else { return }
        let result = try #require(report.cases.first { $0.id == first })
        #expect(cases.first { $0["id"] as? String == first }?["verdict"] as? String == result.verdict.rawValue)
        #expect(junit.contains(#"name="\#(first)""#))
        #expect(table.contains("fix: " + result.fix))
        #expect(table.contains("see: " + result.reference))
        let html = report.html()
        #expect(html.contains(first) && html.contains(result.verdict.rawValue))
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
        #expect(byID["client-secret-lifetime"]?.detail.contains("invalid_client") == true)
        #expect(report.exitCode == 1)
    }

    @Test("the kit's port is taken: the run cannot start, and says so")
    func portTaken() async throws {
        let backend = try Self.backend(nil)
        var options = backend.options()
        options.port = backend.port
        let error = await #expect(throws: ConformanceStartError.self) { try await Self.run(backend, options: options) }
        #expect(error?.reason.contains("could not serve Apple on port \(backend.port)") == true)
        #expect(error?.code == .kitUnavailable)
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
        #expect(error?.code == .backendUnusable)
    }

    @Test("a backend configured with another Apple: the run cannot start and names the base URL to configure")
    func startRedirectsElsewhere() async throws {
        let backend = try Self.backend(nil)
        var options = backend.options()
        options.port = try FreePort.pick()
        let error = await #expect(throws: ConformanceStartError.self) { try await Self.run(backend, options: options) }
        #expect(error?.reason.contains("configure the backend to use http://127.0.0.1:\(options.port)") == true)
    }

    @Test("an API-only backend (no --start, --native given): every web case SKIPPED with the reason, the native ones PASSED, exit 0")
    func apiOnly() async throws {
        let backend = try Self.backend(nil)
        var options = backend.options()
        options.startPath = nil
        options.notificationsPath = nil
        let report = try await Self.run(backend, options: options)
        let byID = Dictionary(uniqueKeysWithValues: report.cases.map { ($0.id, $0) })
        for conformanceCase in ConformanceCatalog.all {
            let result = try #require(byID[conformanceCase.id])
            if CasePlayer.webStartFlows.contains(conformanceCase.flow) {
                #expect(result.verdict == .skipped && result.detail == CasePlayer.noWebStart, "\(result.id): \(result.detail)")
            } else if conformanceCase.flow == .native || conformanceCase.flow == .clientSecrets {
                #expect(result.verdict == .passed, "\(result.id): \(result.verdict.rawValue) \(result.detail)")
            }
        }
        #expect(report.failed == 0 && report.exitCode == 0)
        #expect(report.passed == ConformanceCatalog.all.filter { $0.flow == .native || $0.flow == .clientSecrets }.count)
    }

    @Test("an API-only run whose native endpoint is not listening cannot start; neither --start nor --native is refused")
    func apiOnlyRefusals() async throws {
        let backend = try Self.backend(nil)
        var options = backend.options()
        options.startPath = nil
        let error = await #expect(throws: ConformanceStartError.self) { try await ConformanceRun(options: options).run() }
        #expect(error?.reason.contains("could not be reached") == true)
        options.nativePath = nil
        await #expect(throws: ConformanceStartError(.invalidOptions, "an API-only run (--api-only) needs --native: the kit needs a sign-in to judge"))
        {
            try await ConformanceRun(options: options).run()
        }
    }

    @Test("unusable options are refused before anything starts")
    func badOptions() async throws {
        let backend = try Self.backend(nil)
        var options = backend.options()
        options.port = 70_000
        await #expect(throws: ConformanceStartError(.invalidOptions, "--port must be between 1 and 65535")) {
            try await ConformanceRun(options: options).run()
        }
        #expect(throws: ConformanceStartError.self) {
            try ConformanceOptions.teamPublicKeyPEM(fromPEM: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----")
        }
    }
}
