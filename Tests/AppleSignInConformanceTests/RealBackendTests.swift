import Crypto
import Foundation
import JuiceTestSupport
import Testing

@testable import AppleSignInConformance

/// The kit against real open-source Sign in with Apple backends installed from PyPI at the versions
/// `scripts/test` pins (django-allauth 65.21.1; social-auth-app-django 8.0.0 with social-auth-core
/// 7.0.0; Django 5.2.19, PyJWT 2.15.1), each in a minimal Django project whose only change is Apple's
/// URLs (Fixtures/django). Each expected verdict below was derived by reading the library's source;
/// the comment names the file and function that decide it. A test fails on a false alarm (FAILED or
/// WARNING where the library is right), on an empty pass (PASSED where nothing could be judged), and
/// when a case is added without an expectation here.
@Suite("juice conformance against real open-source backends from PyPI", .serialized)
struct RealBackendTests {
    typealias Verdict = ConformanceVerdict

    /// Cases no flow of these sites reaches: SKIPPED, since neither has a notification or deletion endpoint.
    static let notOffered: [String: Verdict] = Dictionary(
        uniqueKeysWithValues: ConformanceCatalog.notificationCases.map { ($0.id, .skipped) } + [("account-deletion-revokes", .skipped)])
    /// social-auth-app-django has no native endpoint: no native case, and no second audience to judge.
    static let noNative: [String: Verdict] = Dictionary(
        uniqueKeysWithValues: ConformanceCatalog.all.filter { $0.flow == .native || $0.flow == .audiences }.map { ($0.id, .skipped) })

    // django-allauth 65.21.1, allauth/socialaccount/providers/apple/…
    static let allauth: [String: Verdict] = notOffered.merging(
        [
            // views.py:apple_post_callback keeps code/state/user/id_token and 302s to the finish URL, where
            // oauth2/views.py:OAuth2CallbackView.dispatch finds the state in the Lax session cookie, redeems
            // the code (client.py:AppleOAuth2Client.get_access_token) and signs in.
            "sign-in": .passed, "returning-user": .passed,
            // provider.py:AppleProvider.extract_email_addresses accepts "true"/"false" strings.
            "booleans-as-strings": .passed,
            // No domain list anywhere: any relay address is an email like another.
            "private-email": .passed, "private-email-icloud": .passed, "private-email-icloud-com": .passed,
            // views.py:AppleOAuth2Adapter.parse_token: user_data = {**data, **identity_data}: the verified
            // token's email overrides the `user` field's.
            "user-email-differs": .passed,
            // views.py:get_access_token_data prefers the token endpoint's id_token; the form_post one is only
            // a fallback when the token response has none: damaging only the form_post token changes nothing.
            ConformanceCatalog.formPostChannel: .passed, ConformanceCatalog.tokenEndpointChannel: .passed,
            // internal/jwtkit.py:verify_and_decode checks signature (key by kid), iss, aud, exp, iat.
            "id-token-bad-signature": .passed, "id-token-unknown-kid": .passed, "id-token-wrong-issuer": .passed,
            "id-token-wrong-audience": .passed, "id-token-expired": .passed,
            // jwtkit.py:fetch_key takes alg from the token's header: with "none", PyJWT refuses the RSA key
            // (InvalidKeyError, a PyJWTError): refused.
            "id-token-alg-none": .passed,
            // The same with "HS256": PyJWT's HMAC prepare_key raises TypeError on the RSA key object, which is
            // no PyJWTError, so the finish view crashes (500): refused, but by a crash.
            "id-token-hs256-public-key": .warning,
            // client.py:AppleOAuth2Client.get_redirect_url sends no nonce: nothing to compare.
            "id-token-nonce-mismatch": .skipped, "id-token-nonce-missing": .skipped, "authorization-request-nonce": .warning,
            // oauth2/views.py:_get_state → statekit.unstash_state pops the state from the session; Django's
            // login cycles the session key, so the browser's earlier session no longer holds it.
            "state-mismatch": .passed, "state-replay": .passed,
            // client.py:get_access_token raises OAuth2Error when Apple answers invalid_grant.
            "code-rejected-by-apple": .passed,
            // The form_post token (the only one with c_hash) is not checked: see the channel cases.
            "id-token-code-hash-mismatch": .skipped,
            // PyJWT checks iat with leeway 0 (jwtkit.py passes none): an hour ahead refused, but 5 s ahead too.
            "id-token-issued-in-future": .passed, "id-token-issued-seconds-ahead": .warning,
            // client.py:generate_client_secret: ES256, iss team, sub client id, exp = iat + 3600.
            "client-secret-lifetime": .passed,
            // jwtkit.py:fetch_key fetches Apple's key set on every verification.
            "key-rotation": .passed,
            // Native (Fixtures/django/allauth_native.py → provider.py:AppleProvider.verify_token →
            // views.py:get_verified_identity_data): the token is verified like the web one …
            "native-sign-in": .passed, "native-id-token-bad-signature": .passed, "native-id-token-alg-none": .passed,
            "native-id-token-unknown-kid": .passed, "native-id-token-wrong-issuer": .passed, "native-id-token-wrong-audience": .passed,
            "native-id-token-expired": .passed,
            // … HS256 crashes it the same way (TypeError is neither OAuth2Error nor RequestException) …
            "native-id-token-hs256-public-key": .warning,
            // … but verify_token never compares the token's nonce with the app's, and never redeems the
            // authorization code: a token captured from another app sign-in is accepted as is.
            "native-id-token-nonce-mismatch": .failed, "native-code-rejected-by-apple": .failed,
            // allauth_native.py reads identityToken only: a body without a code signs in just the same, the
            // same credential signs in again, and Apple's outage goes unnoticed (the code is never redeemed).
            "native-token-without-code": .failed, "native-token-replay": .failed, "native-apple-unavailable": .failed,
            "native-apple-slow": .failed,
            // The site is configured with the Services ID and the bundle id ("web,bundle", as provider.py:get_auds
            // reads client_id): the web sign-in and the native one pass, and PyJWT compares aud exactly, so
            // BUNDLE.watchkitapp is refused.
            "several-audiences": .passed,
            // views.py:parse_token / provider.py:extract_email_addresses: no email, no address; the uid is sub.
            "native-no-email": .passed,
            // jwtkit.verify_and_decode is given issuer="https://appleid.apple.com" (views.py): discovery is never read.
            "native-issuer-drift": .passed,
            // internal/jwtkit.py:fetch_key fetches Apple's key set for every verification, no cache: with the key
            // endpoint down nobody signs in. A recommended case: a WARNING.
            "native-keys-unavailable": .warning,
            // The web flow the same: fetch_key's response.raise_for_status() raises an HTTPError (a RequestException), which
            // oauth2/views.py:OAuth2CallbackView.dispatch catches: the error page, nobody signed in.
            "web-keys-unavailable": .warning,
            // views.py passes issuer="https://appleid.apple.com" to jwtkit.verify_and_decode: discovery is never read.
            "web-issuer-drift": .passed,
            // provider.py:extract_email_addresses: no email, no address; the account is keyed by sub.
            "web-no-email": .passed,
            // apple/client.py:AppleOAuth2Client.get_access_token raises OAuth2Error on any status but 200/201; a stall ends
            // with requests' ReadTimeout after SOCIALACCOUNT_REQUESTS_TIMEOUT (5 s): both caught by
            // OAuth2CallbackView.dispatch (OAuth2Error, RequestException): the error page, promptly.
            "web-apple-unavailable": .passed, "web-apple-slow": .passed,
            // apple/client.py:get_access_token: a 401 is not 200/201, and a 200 whose body is not JSON falls back to
            // parse_qsl, which finds no access_token: OAuth2Error both times, caught by dispatch.
            "web-apple-invalid-client": .passed, "web-apple-malformed-answer": .passed,
            // Its native check never calls Apple's token endpoint: whatever Apple answers, the token alone signs in.
            "native-apple-invalid-client": .failed, "native-apple-malformed-answer": .failed,
            // jwtkit.py:fetch_key fetches the key set for every verification: a new kid is found at once, natively too ...
            "native-key-rotation": .passed,
            // ... and a stalled key endpoint ends in requests' ReadTimeout after 5 s: the error page (web, caught by
            // dispatch) or a 500 (native): nobody signs in while Apple's keys are slow. Recommended: WARNING.
            "web-keys-slow": .warning, "native-keys-slow": .warning,
            // No domain list anywhere, native as web.
            "native-private-email": .passed, "native-private-email-icloud": .passed, "native-private-email-icloud-com": .passed,
        ]
    ) { _, new in new }

    // social-auth-core 7.0.0 social_core/backends/apple.py:AppleIdAuth and oauth.py:BaseOAuth2, with
    // social-auth-app-django 8.0.0, its session cookie SameSite=None; Secure (the form_post must reach it).
    // No SocialAuthExceptionMiddleware (optional in its documentation): every AuthException a refusal
    // raises reaches Django as a 500.
    static let socialAuth: [String: Verdict] = notOffered.merging(noNative) { _, new in new }.merging(
        [
            // oauth.py:BaseOAuth2.auth_complete: state from the session, code redeemed, then apple.py:do_auth
            // verifies the token endpoint's id_token (response["id_token"]) and signs in.
            "sign-in": .passed, "returning-user": .passed,
            // apple.py:get_user_details never reads email_verified/is_private_email.
            "booleans-as-strings": .passed, "private-email": .passed, "private-email-icloud": .passed, "private-email-icloud-com": .passed,
            // apple.py:get_user_details takes the email from the decoded token, only the name from `user`.
            "user-email-differs": .passed,
            // apple.py:do_auth: jwt_string = response.get("id_token"), the token endpoint's answer.
            ConformanceCatalog.formPostChannel: .passed, ConformanceCatalog.tokenEndpointChannel: .passed,
            // apple.py:decode_id_token pins RS256, looks the kid up (AuthResponseError when unknown), checks
            // aud, iss, exp, iat; each refusal is an uncaught AuthException: 500.
            "id-token-bad-signature": .warning, "id-token-alg-none": .warning, "id-token-hs256-public-key": .warning,
            "id-token-unknown-kid": .warning, "id-token-wrong-issuer": .warning, "id-token-wrong-audience": .warning,
            "id-token-expired": .warning, "id-token-issued-in-future": .warning,
            // PyJWT's iat check with leeway 0: a token 5 s ahead is refused (and crashes).
            "id-token-issued-seconds-ahead": .warning,
            // apple.py sends no nonce (auth_params adds only response_mode).
            "id-token-nonce-mismatch": .skipped, "id-token-nonce-missing": .skipped, "authorization-request-nonce": .warning,
            // oauth.py:BaseOAuth2.validate_state: unknown state, or a state consumed (storage.nonce.consume,
            // session_pop): AuthSessionError, 500.
            "state-mismatch": .warning, "state-replay": .warning,
            // oauth.py:request_access_token raises on invalid_grant: 500.
            "code-rejected-by-apple": .warning,
            "id-token-code-hash-mismatch": .skipped,
            // apple.py:generate_client_secret: exp = iat + TOKEN_TTL_SEC (15552000 s, within six months).
            "client-secret-lifetime": .passed,
            // apple.py:get_apple_jwk fetches the key set on every verification.
            "key-rotation": .passed,
            // ... so with the key endpoint down, base.py:BaseAuth.request raises (no cache to fall back on): 500.
            "web-keys-unavailable": .warning,
            // apple.py:decode_id_token passes issuer=ID_TOKEN_ISSUER ("https://appleid.apple.com"): discovery is never read.
            "web-issuer-drift": .passed,
            // apple.py:get_user_details: email "" when the token has none; the uid is sub.
            "web-no-email": .passed,
            // base.py:BaseAuth.request: Apple's 503 raises, a stall ends after REQUESTS_TIMEOUT or URLOPEN_TIMEOUT or 5 s
            // (AuthProviderError "timeout"): uncaught without SocialAuthExceptionMiddleware, a 500, promptly.
            "web-apple-unavailable": .warning, "web-apple-slow": .warning,
            // oauth.py:request_access_token: base.py:BaseAuth.request turns the 401 into an AuthException (http_error), and
            // get_json's JSON decoding fails on the cut-off body: uncaught, 500 both times.
            "web-apple-invalid-client": .warning, "web-apple-malformed-answer": .warning,
            // apple.py:get_apple_jwk's request times out after 5 s (AuthProviderError): a 500.
            "web-keys-slow": .warning,
        ]
    ) { _, new in new }

    /// social-auth-app-django with Django's default session cookie (SameSite=Lax): Apple's cross-site
    /// form_post arrives without the session that holds the state (oauth.py:validate_state raises, 500),
    /// so nobody can sign in: every accepting case FAILED, every refusal INCONCLUSIVE, never PASSED.
    static let socialAuthLax: [String: Verdict] = socialAuth.mapValues { $0 == .skipped ? .skipped : .inconclusive }.merging(
        [
            "sign-in": .failed, "returning-user": .failed, "booleans-as-strings": .failed, "private-email": .failed,
            "private-email-icloud": .failed, "private-email-icloud-com": .failed, "user-email-differs": .failed, "key-rotation": .failed,
            "web-issuer-drift": .failed, "web-no-email": .failed,
            // The start still works: the authorization request is judged, and the nonce cases stay SKIPPED.
            "authorization-request-nonce": .warning,
            // An accepting case, recommended: a sign-in that fails is a WARNING.
            "id-token-issued-seconds-ahead": .warning,
            // With the channel cases inconclusive, c_hash cannot be ruled out: judged, so inconclusive.
            "id-token-code-hash-mismatch": .inconclusive,
            // The token endpoint is never called.
            "client-secret-lifetime": .inconclusive,
        ]
    ) { _, new in new }

    // dj-rest-auth 7.2.0 (dj_rest_auth/registration/serializers.py:SocialLoginSerializer) with django-allauth
    // 65.21.1's Apple adapter, judged API-only (no --start) with --native-body rest-auth: every web and
    // notification case SKIPPED.
    static let restAuth: [String: Verdict] = Dictionary(uniqueKeysWithValues: ConformanceCatalog.all.map { ($0.id, Verdict.skipped) }).merging(
        [
            // validate: Case 2, a code: client.get_access_token redeems it (with the view's callback_url as
            // redirect_uri, which Apple accepts for a native code), then adapter.parse_token verifies the token
            // endpoint's id_token (views.py:get_verified_identity_data) and complete_social_login signs in.
            "native-sign-in": .passed,
            // parse_token runs outside validate's try (which catches HTTPError only): jwtkit's OAuth2Error (and
            // PyJWT's TypeError for HS256) reach Django as a 500. Refused, but by a crash.
            "native-id-token-bad-signature": .warning, "native-id-token-alg-none": .warning, "native-id-token-hs256-public-key": .warning,
            "native-id-token-unknown-kid": .warning, "native-id-token-wrong-issuer": .warning, "native-id-token-wrong-audience": .warning,
            "native-id-token-expired": .warning,
            // The serializer has no nonce field, and allauth's Apple adapter compares none.
            "native-id-token-nonce-mismatch": .failed,
            // get_access_token raises OAuth2Error on invalid_grant, caught: ValidationError, 400.
            "native-code-rejected-by-apple": .passed,
            // validate: Case 1, an access_token: tokens_to_parse = {access_token, id_token}; parse_token verifies
            // the id_token and signs in, and Apple's token endpoint is never called.
            "native-token-without-code": .failed,
            // The code of the first sign-in is redeemed again: Apple (the kit) answers invalid_grant, caught: 400.
            "native-token-replay": .passed,
            // Apple's 503: get_access_token raises OAuth2Error ("Error retrieving access token"), caught: 400.
            "native-apple-unavailable": .passed,
            // Apple stalls: allauth's requests session gives up after SOCIALACCOUNT_REQUESTS_TIMEOUT (5 s,
            // adapter.py:get_requests_session), promptly, but requests' ReadTimeout is no HTTPError: validate lets
            // it through, a 500. Refused in time, but by a crash.
            "native-apple-slow": .warning,
            // No email in the token: complete_social_login signs the new user up with no address.
            "native-no-email": .passed,
            // The issuer is the constant in views.py:get_verified_identity_data: discovery is never read.
            "native-issuer-drift": .passed,
            // allauth's jwtkit fetches the key set for every verification: with the key endpoint down, parse_token
            // fails (a 500). A recommended case: a WARNING.
            "native-keys-unavailable": .warning,
            // allauth's client.py:generate_client_secret: ES256, exp = iat + 3600.
            "client-secret-lifetime": .passed,
            // validate: client.get_access_token raises OAuth2Error on the 401 and on the unreadable 200 (parse_qsl finds no
            // access_token), caught: ValidationError, 400.
            "native-apple-invalid-client": .passed, "native-apple-malformed-answer": .passed,
            // allauth's jwtkit fetches the key set for every verification: a rotated kid is found at once; a stalled key
            // endpoint ends in ReadTimeout after 5 s, uncaught by validate: a 500.
            "native-key-rotation": .passed, "native-keys-slow": .warning,
            // Relay addresses are addresses like any other (no domain list in allauth or dj-rest-auth).
            "native-private-email": .passed, "native-private-email-icloud": .passed, "native-private-email-icloud-com": .passed,
        ]
    ) { _, new in new }

    @Test(
        "dj-rest-auth's SocialLoginView, API-only (--api-only, --native-body rest-auth): web cases SKIPPED; it signs in from a token alone",
        .enabled(if: DjangoBackend.shouldRun(.restAuth), "needs python3 with dj-rest-auth (scripts/test installs it)"),
        .timeLimit(.minutes(10)))
    func restAuthVerdicts() async throws {
        guard
            let report = try await Self.run(
                .restAuth,
                adjust: { options in
                    options.startPath = nil
                    options.probePath = nil
                    options.nativePath = "/api/auth/apple/"
                    options.nativeBody = .restAuth
                })
        else { return }
        Self.expect(report, Self.restAuth)
        #expect(report.failed == 2)
        #expect(report.exitCode == 1)
        let webCases = Set(ConformanceCatalog.all.filter { CasePlayer.webStartFlows.contains($0.flow) }.map(\.id))
        #expect(report.cases.filter { webCases.contains($0.id) }.allSatisfy { $0.detail == CasePlayer.noWebStart })
    }

    @Test(
        "django-allauth's Apple provider: every verdict as its source says (its native check skips nonce and code), no false alarm, no empty pass",
        .enabled(if: DjangoBackend.shouldRun(.allauth), "needs python3 with django-allauth (scripts/test installs it)"),
        .timeLimit(.minutes(10)))
    func allauthVerdicts() async throws {
        guard let report = try await Self.run(.allauth) else { return }
        Self.expect(report, Self.allauth)
        #expect(report.channel.hasPrefix("the token endpoint's id_token"))
        #expect(report.failed == 8)
        #expect(report.exitCode == 1)
    }

    @Test(
        "social-auth-app-django's AppleIdAuth: every verdict as its source says; refusals by a crash are warnings",
        .enabled(if: DjangoBackend.shouldRun(.socialAuth), "needs python3 with social-auth-app-django (scripts/test installs it)"),
        .timeLimit(.minutes(10)))
    func socialAuthVerdicts() async throws {
        guard let report = try await Self.run(.socialAuth, environment: ["SESSION_SAMESITE_NONE": "1"]) else { return }
        Self.expect(report, Self.socialAuth)
        #expect(report.channel.hasPrefix("the token endpoint's id_token"))
        let crashed = report.cases.filter { $0.verdict == .warning && $0.observed == "error" && $0.expect == .refuse }
        #expect(crashed.count == 15)
        #expect(crashed.allSatisfy { $0.detail.contains("HTTP 500") && $0.fix.contains("4xx") })
        #expect(report.exitCode == 0)
    }

    @Test(
        "a backend that can sign nobody in (social-auth with a Lax session cookie): refusals are INCONCLUSIVE, never PASSED; exit 1",
        .enabled(if: DjangoBackend.shouldRun(.socialAuth), "needs python3 with social-auth-app-django (scripts/test installs it)"),
        .timeLimit(.minutes(10)))
    func socialAuthCannotSignIn() async throws {
        guard let report = try await Self.run(.socialAuth) else { return }
        Self.expect(report, Self.socialAuthLax)
        #expect(report.passed == 0)
        let inconclusive = report.cases.filter { $0.verdict == .inconclusive && $0.expect == .refuse }
        #expect(inconclusive.allSatisfy { $0.detail.contains("baseline sign-in") || $0.detail.contains("was not accepted") })
        #expect(report.exitCode == 1)
    }

    /// The report, or `nil` (with an issue under `JUICE_TEST_REQUIRE_ALL=1`) when python3 lacks the library.
    static func run(
        _ site: DjangoBackend.Site, environment: [String: String] = [:], adjust: (inout ConformanceOptions) -> Void = { _ in }
    ) async throws -> ConformanceReport? {
        if let missing = DjangoBackend.missingModule(for: site) {
            Issue.record("JUICE_TEST_REQUIRE_ALL=1 requires the \(site.rawValue) backend, but python3 cannot import \(missing)")
            return nil
        }
        let backend = DjangoBackend(
            site: site, port: try FreePort.pick(), applePort: try FreePort.pick(), teamKey: P256.Signing.PrivateKey(), environment: environment)
        var options = backend.options()
        adjust(&options)
        let report = try await backend.serving { [options] in try await ConformanceRun(options: options).run() }
        try? FileManager.default.createDirectory(
            at: TestOutput.base.appendingPathComponent("conformance"), withIntermediateDirectories: true)
        // social_site.txt (Django's default Lax session cookie), social_site-session_samesite_none.txt, allauth_site.txt.
        let name = ([site.rawValue] + environment.keys.sorted().map { $0.lowercased() }).joined(separator: "-")
        try? Data(report.table().utf8).write(to: TestOutput.base.appendingPathComponent("conformance/\(name).txt"))
        try? Data(report.html().utf8).write(to: TestOutput.base.appendingPathComponent("conformance/\(name).html"))
        return report
    }

    /// Every case has an expectation, and every verdict is the expected one.
    static func expect(_ report: ConformanceReport, _ expected: [String: Verdict]) {
        #expect(Set(report.cases.map(\.id)) == Set(expected.keys), "a case without an expectation, or an expectation without a case")
        for result in report.cases {
            #expect(result.verdict == expected[result.id], "\(result.id): \(result.verdict.rawValue) (\(result.observed)) \(result.detail)")
        }
    }
}

extension DjangoBackend {
    /// Runs a real-backend test when python3 has the library, and also when `JUICE_TEST_REQUIRE_ALL=1`
    /// (then it fails naming what is missing); otherwise it is skipped.
    static func shouldRun(_ site: Site) -> Bool {
        BrowserTools.requireAll || missingModule(for: site) == nil
    }
}
