import Crypto
import Foundation
import JuiceTestSupport
import Testing

@testable import AppleSignInConformance

/// The kit against Authlib's Flask client (Authlib 1.9.6, joserfc 1.8.0, Flask 3.1.3, as `scripts/test` pins
/// them) in the repository's example backend, Examples/python/flask_authlib/app.py, as it is. Each expected
/// verdict was derived from the source before the run; the comment names the file and function that decide it.
@Suite("juice conformance against Authlib's Flask client and PyJWT's key client", .serialized)
struct FlaskBackendTests {
    typealias Verdict = ConformanceVerdict

    static let expected: [String: Verdict] = [
        // app.py:callback → flask_client/apps.py:authorize_access_token: the state from Authlib's cache (ServerSideStates),
        // the code redeemed, then base_client/sync_openid.py:parse_id_token verifies the token endpoint's id_token.
        "sign-in": .passed, "returning-user": .passed,
        // app.py:sign_in reads is_private_email with str(...).lower(): strings and booleans alike.
        "booleans-as-strings": .passed,
        "private-email": .passed, "private-email-icloud": .passed, "private-email-icloud-com": .passed,
        // app.py:sign_in keeps claims["email"], never the user field's; /me shows it.
        "user-email-differs": .passed,
        // authorize_access_token never reads the form_post id_token: only the token endpoint's is verified.
        ConformanceCatalog.formPostChannel: .passed, ConformanceCatalog.tokenEndpointChannel: .passed,
        // parse_id_token: jwt.decode with the JWK set and JWSRegistry(algorithms=["RS256"], from discovery's
        // id_token_signing_alg_values_supported); an unknown kid refetches the set once (fetch_jwk_set(force=True)) and
        // still fails; CodeIDToken checks iss (discovery's issuer), aud, exp, iat (leeway 120), nonce. app.py:callback
        // answers any exception with a 400.
        "id-token-bad-signature": .passed, "id-token-alg-none": .passed, "id-token-hs256-public-key": .passed,
        "id-token-unknown-kid": .passed, "id-token-wrong-issuer": .passed, "id-token-wrong-audience": .passed,
        "id-token-expired": .passed, "id-token-nonce-mismatch": .passed, "id-token-nonce-missing": .passed,
        // joserfc _rfc7519/claims.py:validate_iat: iat > now + leeway (120 s) refused; 5 s ahead accepted.
        "id-token-issued-in-future": .passed, "id-token-issued-seconds-ahead": .passed,
        // flask_client/apps.py:authorize_access_token: get_state_data from the cache, clear_state_data after use.
        "state-mismatch": .passed, "state-replay": .passed,
        // fetch_access_token raises on Apple's invalid_grant and on its 503: app.py:callback's 400.
        "code-rejected-by-apple": .passed, "web-apple-unavailable": .passed,
        // fetch_access_token: Apple's invalid_client raises OAuthError, an unreadable 200 fails in resp.json(): the 400 both times.
        "web-apple-invalid-client": .passed, "web-apple-malformed-answer": .passed,
        // app.py:native requires a 200 whose JSON carries an id_token: the 401 and the unreadable 200 are refused (400).
        "native-apple-invalid-client": .passed, "native-apple-malformed-answer": .passed,
        // OAuth2Session has no default_timeout (requests_client/oauth2_session.py): the callback waits as long as
        // Apple does, past the kit's bound: refused only by a stall.
        "web-apple-slow": .warning,
        // sync_app.py:load_server_metadata reads discovery once per process, at the first authorize_redirect (the
        // kit's start check, before the drift): its issuer is the one read then, so the drift case cannot be judged.
        "web-issuer-drift": .inconclusive,
        // fetch_jwk_set keeps the key set in server_metadata["jwks"]: Apple's key endpoint down changes nothing ...
        "web-keys-unavailable": .passed,
        // ... and an unknown kid refetches it at once (parse_id_token's InvalidKeyIdError branch); a slow key endpoint is never asked.
        "key-rotation": .passed, "web-keys-slow": .passed,
        // app.py:verify_apple_jwt fetches /auth/keys on every call: a new kid is found at once; a stalled key endpoint
        // ends in requests' ReadTimeout (timeout=10) inside its try: a 400, nobody signs in. Recommended: WARNING.
        "native-key-rotation": .passed, "native-keys-slow": .warning,
        "web-no-email": .passed,
        // No nonce check is possible on c_hash: the form_post token is never read (see the channel cases).
        "id-token-code-hash-mismatch": .skipped,
        // sync_app.py:create_authorization_url adds a nonce for the openid scope.
        "authorization-request-nonce": .passed,
        // app.py has no account deletion.
        "account-deletion-revokes": .skipped,
        // app.py:client_secret: ES256 by the team key, exp = iat + 3600.
        "client-secret-lifetime": .passed,
        // app.py:native: verify_apple_jwt (joserfc, RS256 only, iss from discovery, aud the bundle id, leeway 60), the
        // nonce's SHA-256 compared, the code redeemed (any status but 200 refused with a 400).
        "native-sign-in": .passed, "native-id-token-bad-signature": .passed, "native-id-token-alg-none": .passed,
        "native-id-token-hs256-public-key": .passed, "native-id-token-unknown-kid": .passed, "native-id-token-wrong-issuer": .passed,
        "native-id-token-wrong-audience": .passed, "native-id-token-expired": .passed, "native-id-token-nonce-mismatch": .passed,
        "native-code-rejected-by-apple": .passed, "native-token-without-code": .passed, "native-token-replay": .passed,
        "native-no-email": .passed, "native-apple-unavailable": .passed,
        "native-private-email": .passed, "native-private-email-icloud": .passed, "native-private-email-icloud-com": .passed,
        // app.py:native posts to Apple with requests' timeout=10 outside its try: ReadTimeout, a 500 within the bound.
        "native-apple-slow": .warning,
        // app.py:issuer() is load_server_metadata()["issuer"], read before the drift: not judged.
        "native-issuer-drift": .inconclusive,
        // app.py:verify_apple_jwt fetches /auth/keys on every call, no cache: with Apple's key endpoint down, a 400.
        "native-keys-unavailable": .warning,
        // The web path takes the Services ID, the native one the bundle id (verify_apple_jwt's aud): BUNDLE.watchkitapp refused.
        "several-audiences": .passed,
        // app.py:notifications verifies like the native token, reads events as a string or an object, and on
        // consent-revoked or account-delete drops the user, so /me answers 401.
        "notification": .passed, "notification-bad-signature": .passed, "notification-wrong-audience": .passed,
        "notification-events-object": .passed, "consent-revoked-ends-session": .passed, "account-delete-ends-session": .passed,
        // app.py:notifications verifies with verify_apple_jwt: the issuer from discovery read before the drift (not judged), and
        // /auth/keys fetched on every call (Apple's key endpoint down: an error, not a verified notification).
        "notification-issuer-drift": .inconclusive, "notification-keys-unavailable": .warning,
    ]

    @Test(
        "Authlib's Flask client: every verdict as its source says; the issuer drift cannot be judged when discovery was read before it",
        .enabled(if: FlaskBackend.shouldRun(.authlib), "needs python3 with Authlib and Flask (scripts/test installs them)"),
        .timeLimit(.minutes(10)))
    func verdicts() async throws {
        guard let report = try await Self.run(.authlib) else { return }
        RealBackendTests.expect(report, Self.expected)
        #expect(report.channel.hasPrefix("the token endpoint's id_token"))
        let drift = try #require(report.cases.first { $0.id == "web-issuer-drift" })
        #expect(drift.detail.contains("only before the drift"))
        #expect(report.exitCode == 0)
    }

    @Test(
        "Authlib started while Apple's discovery is drifted FAILS web-issuer-drift and every web sign-in; the report says it read the drifted issuer",
        .enabled(if: FlaskBackend.shouldRun(.authlib), "needs python3 with Authlib and Flask (scripts/test installs them)"),
        .timeLimit(.minutes(10)))
    func driftedDiscovery() async throws {
        guard let report = try await Self.run(.authlib, drifted: true) else { return }
        let byID = Dictionary(uniqueKeysWithValues: report.cases.map { ($0.id, $0) })
        for id in ["sign-in", "returning-user", "web-issuer-drift", "native-sign-in", "native-issuer-drift", "notification-issuer-drift"] {
            #expect(byID[id]?.verdict == .failed, "\(id): \(byID[id]?.verdict.rawValue ?? "missing") \(byID[id]?.detail ?? "")")
        }
        #expect(byID["web-issuer-drift"]?.detail.contains("read discovery (issuer https://account.apple.com) during the drift") == true)
        #expect(byID["id-token-wrong-issuer"]?.verdict == .inconclusive)
        #expect(report.exitCode == 1)
    }

    @Test(
        "PyJWT's PyJWKClient at its defaults refetches a rotated key only after its 30 s cooldown: key-rotation WARNING with the delay and the fix",
        .enabled(if: FlaskBackend.shouldRun(.pyjwt), "needs python3 with PyJWT and Flask (scripts/test installs them)"),
        .timeLimit(.minutes(5)))
    func pyjwtCooldown() async throws {
        guard let report = try await Self.run(.pyjwt, cases: ["sign-in", "key-rotation"]) else { return }
        let rotation = try #require(report.cases.first { $0.id == "key-rotation" })
        #expect(report.cases.first?.verdict == .passed)
        #expect(rotation.verdict == .warning, "\(rotation.detail)")
        #expect(rotation.observed == "accepted-late")
        #expect(rotation.detail.contains("refused a new key and kid for"))
        #expect(rotation.fix.contains("cooldown_duration"))
        #expect(report.exitCode == 0)
    }

    @Test(
        "a PyJWKClient that never refetches for an unknown kid: key-rotation FAILED, the report says it never refetched",
        .enabled(if: FlaskBackend.shouldRun(.pyjwtNeverRefetching), "needs python3 with PyJWT and Flask (scripts/test installs them)"),
        .timeLimit(.minutes(5)))
    func pyjwtNeverRefetches() async throws {
        guard let report = try await Self.run(.pyjwtNeverRefetching, cases: ["sign-in", "key-rotation"]) else { return }
        let rotation = try #require(report.cases.first { $0.id == "key-rotation" })
        #expect(report.cases.first?.verdict == .passed)
        #expect(rotation.verdict == .failed, "\(rotation.detail)")
        #expect(rotation.detail.contains("never refetched Apple's keys"))
        #expect(report.exitCode == 1)
    }

    /// The report, or `nil` (with an issue under `JUICE_TEST_REQUIRE_ALL=1`) when python3 lacks a module.
    static func run(_ kind: FlaskBackend.Kind, drifted: Bool = false, cases: Set<String>? = nil) async throws -> ConformanceReport? {
        let backend = FlaskBackend(kind: kind, port: try FreePort.pick(), applePort: try FreePort.pick(), teamKey: P256.Signing.PrivateKey())
        if let missing = backend.missingModule() {
            Issue.record("JUICE_TEST_REQUIRE_ALL=1 requires the \(kind) backend, but python3 cannot import \(missing)")
            return nil
        }
        var options = backend.options()
        options.driftedDiscovery = drifted
        options.caseIDs = cases
        let report = try await backend.serving { [options] in try await ConformanceRun(options: options).run() }
        let name = drifted ? "\(kind)-drifted" : "\(kind)"
        try? Data(report.table().utf8).write(to: TestOutput.base.appendingPathComponent("conformance/\(name).txt"))
        return report
    }
}
