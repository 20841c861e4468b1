import AppleIDEmulator

/// Every case the kit runs, in order. Accepting cases come first (they show the backend works at all),
/// key rotation last (so a backend that never refreshes its keys fails that case only).
public enum ConformanceCatalog {
    /// Every case of a run; one whose endpoint (`--native`, `--notifications`, `--delete`) was not given is SKIPPED.
    public static var all: [ConformanceCase] {
        web + nativeCases + audienceCases + notificationCases + recommended + [keyRotation, nativeKeyRotation]
    }

    /// The accepting web case every refusing web case is measured against.
    static let webBaseline = "sign-in"
    /// The accepting native case every refusing native case is measured against.
    static let nativeBaseline = "native-sign-in"
    /// The accepting notification case every refusing notification case is measured against.
    static let notificationBaseline = "notification"
    /// The information cases that find out which identity token the backend checks.
    static let formPostChannel = "channel-form-post-id-token"
    static let tokenEndpointChannel = "channel-token-endpoint-id-token"

    static let web: [ConformanceCase] = [
        .init(
            "sign-in", "new user: name and email in `user`, email booleans as JSON booleans", expect: .accept,
            [NewUser()],
            hint: "verify the token with the keys at APPLE/auth/keys and redeem the code at APPLE/auth/token; read `user` only on first sign-in",
            reference: Reference.authenticating),
        .init(
            "returning-user", "the same Apple ID again, no `user` field", expect: .accept,
            hint: "`user` is sent only on the first authorization: find the account by `sub`, never require name or email",
            reference: Reference.userObject),
        .init(
            "booleans-as-strings", "email_verified and is_private_email as \"true\"/\"false\" strings", expect: .accept,
            [EmailBooleansAsStrings()],
            hint: "Apple sends email_verified/is_private_email as strings or booleans: accept both", reference: Reference.emailBooleans),
        .init(
            "private-email", "a new user who hid their email: a privaterelay.appleid.com address", expect: .accept,
            [HiddenEmail(domain: .privateRelay)],
            hint: "accept relay addresses (is_private_email true) as the account's email", reference: Reference.relay),
        .init(
            "private-email-icloud", "a new user who hid their email: a private.icloud.com relay address", expect: .accept,
            [HiddenEmail(domain: .privateICloud)],
            hint: "accept every Apple relay domain (privaterelay.appleid.com, private.icloud.com, icloud.com); never allow-list one",
            reference: Reference.relay),
        .init(
            "private-email-icloud-com", "a new user who hid their email: an older relay address on icloud.com", expect: .accept,
            [HiddenEmail(domain: .iCloud)],
            hint:
                "accept relay addresses on icloud.com too (is_private_email true): older Hide My Email addresses live there beside real "
                + "iCloud addresses, so trust is_private_email, never the domain",
            reference: Reference.relay),
        .init(
            "user-email-differs", "a new user whose `user` field names another email than the signed token", expect: .accept,
            [UserFieldNamesOtherEmail()],
            hint: "take the email from the verified identity token; `user` is unsigned and only its name may be used",
            reference: Reference.userObject),
        .init(
            formPostChannel, "information: only the form_post id_token is damaged (bad signature), the token endpoint's is good",
            expect: .refuse, level: .information, [ForgedSignature(signature: .corrupted, tokens: .delivered)],
            hint: "nothing to fix: this case says whether the backend checks the form_post id_token", reference: Reference.hybridToken),
        .init(
            tokenEndpointChannel, "information: only the token endpoint's id_token is damaged (bad signature), the form_post one is good",
            expect: .refuse, level: .information, [ForgedSignature(signature: .corrupted, tokens: .tokenEndpoint)],
            hint: "nothing to fix: this case says whether the backend checks the token endpoint's id_token",
            reference: Reference.tokenValidation),
        .init(
            "id-token-bad-signature", "identity tokens (form_post and token endpoint) whose RS256 signature does not verify", expect: .refuse,
            [ForgedSignature(signature: .corrupted)],
            hint: "verify the RS256 signature with the key named by `kid` from Apple's key set", reference: Reference.authenticating),
        .init(
            "id-token-alg-none", "identity tokens with alg \"none\" and no signature", expect: .refuse,
            [ForgedSignature(signature: .none)],
            hint: "accept only alg RS256; never let the token choose its algorithm", reference: Reference.algorithm),
        .init(
            "id-token-hs256-public-key", "identity tokens signed HS256 with Apple's RSA public key as the HMAC secret", expect: .refuse,
            [ForgedSignature(signature: .hs256WithPublicKey)],
            hint: "pin the algorithm to RS256: a library that takes alg from the header verifies HMAC with the public key",
            reference: Reference.algorithm),
        .init(
            "id-token-unknown-kid", "identity tokens signed by a key that is not in Apple's key set", expect: .refuse,
            [ForgedSignature(signature: .unpublishedKey)],
            hint: "refuse a token whose kid is not in Apple's key set even after a refetch; never fall back to another key",
            reference: Reference.authenticating),
        .init(
            "id-token-wrong-issuer", "identity tokens with another iss", expect: .refuse,
            [WrongIssuer()],
            hint: "require iss to be exactly Apple's issuer (https://appleid.apple.com)", reference: Reference.idTokenValidation),
        .init(
            "id-token-wrong-audience", "identity tokens for another app (aud is not your client id)", expect: .refuse,
            [WrongAudience()],
            hint: "require aud to be one of your own client ids (Services ID or bundle id)", reference: Reference.idTokenValidation),
        .init(
            "id-token-expired", "identity tokens whose exp passed an hour ago", expect: .refuse,
            [ExpiredToken()],
            hint: "refuse tokens past exp (allow at most a few minutes of clock skew)", reference: Reference.idTokenValidation),
        .init(
            "id-token-nonce-mismatch", "identity tokens carrying a nonce other than the one the backend sent", expect: .refuse,
            [NonceMismatch()],
            hint: "compare the token's nonce with the nonce stored for this state", reference: Reference.nonce),
        .init(
            "state-mismatch", "form_post with a state the backend never issued", expect: .refuse,
            [StateNeverIssued()],
            hint: "look the state up server-side (or bind it to a SameSite=None cookie) and refuse unknown states", reference: Reference.state),
        .init(
            "state-replay", "the browser that started replays a consumed state (fresh valid code and token)", expect: .refuse,
            [StateReplayed()],
            hint: "consume the state atomically on first use; a used state must never sign in again", reference: Reference.state),
        .init(
            "code-rejected-by-apple", "valid token, but Apple's token endpoint answers invalid_grant for the code", expect: .refuse,
            [AppleRefusesCode()],
            hint: "redeem the authorization code at /auth/token and refuse the sign-in when Apple refuses it",
            reference: Reference.tokenEndpoint),
        .init(
            "web-issuer-drift", "a valid sign-in while Apple's discovery names the issuer https://account.apple.com (tokens keep theirs)",
            expect: .accept, [DiscoveryIssuerDrift()],
            hint:
                "expect the issuer Apple's tokens carry (https://appleid.apple.com), configured, never taken from discovery: Apple's "
                + "discovery document changed its issuer in June 2025 while tokens did not",
            reference: Reference.issuerDrift),
        .init(
            "web-no-email", "a new Apple ID whose tokens carry no email (Work & School without a shared email)", expect: .accept,
            [WithoutEmail()],
            hint: "find and create accounts by `sub`; email is optional (managed Apple Accounts, and users who never share it)",
            reference: Reference.workAndSchool),
        .init(
            "web-apple-unavailable", "a valid form_post while Apple's token endpoint answers 503 for the code", expect: .refuse,
            [AppleUnavailable()],
            hint:
                "when Apple fails, refuse the sign-in with an error of your own (4xx, your sign-in error page, or 502/503), promptly; "
                + "never a crash, and never a sign-in without a redeemed code",
            reference: Reference.appleFailing),
        .init(
            "web-apple-slow", "a valid form_post while Apple's token endpoint holds its answer past the stall bound (15 s)",
            expect: .refuse, [AppleSlow()],
            hint:
                "put a deadline on every call to Apple (Juice waits 10 s) and refuse the sign-in when it passes: a backend that waits as "
                + "long as Apple does ties up a worker per sign-in while Apple is slow",
            reference: Reference.appleFailing),
        .init(
            "web-apple-invalid-client", "a valid form_post while Apple's token endpoint answers 401 invalid_client for a good secret",
            expect: .refuse, [AppleRefusesClient()],
            hint: "treat invalid_client from Apple as a failed sign-in (and an alert: a revoked key or a broken secret), never as a success",
            reference: Reference.appleFailing),
        .init(
            "web-apple-malformed-answer", "a valid form_post while Apple's token endpoint answers 200 with a body that is not JSON",
            expect: .refuse, [AppleAnswersMalformed()],
            hint: "parse Apple's token response and require its tokens: an answer you cannot read is a failed redemption, not a sign-in",
            reference: Reference.appleFailing),
        .init(
            "account-deletion-revokes", "a signed-in user deletes the account at --delete: the backend must call /auth/revoke",
            expect: .accept, flow: .deletion,
            hint: "on account deletion, revoke the user's refresh (or access) token at APPLE/auth/revoke", reference: Reference.revoke),
    ]

    static let nativeCases: [ConformanceCase] = [
        .init(
            "native-sign-in", "native credential: token with the nonce's SHA-256, code, raw nonce, user", expect: .accept, flow: .native,
            [NewUser()],
            hint: "hash the raw nonce (SHA-256, hex) and compare with the token's nonce; redeem the code with the bundle id",
            reference: Reference.authenticating),
        .init(
            "native-id-token-bad-signature", "native: tokens whose signature does not verify", expect: .refuse, flow: .native,
            [ForgedSignature(signature: .corrupted)], hint: "verify the RS256 signature of native tokens too", reference: Reference.authenticating),
        .init(
            "native-id-token-alg-none", "native: tokens with alg none", expect: .refuse, flow: .native,
            [ForgedSignature(signature: .none)], hint: "accept only RS256", reference: Reference.algorithm),
        .init(
            "native-id-token-hs256-public-key", "native: HS256 keyed with Apple's public key", expect: .refuse, flow: .native,
            [ForgedSignature(signature: .hs256WithPublicKey)], hint: "pin the algorithm to RS256", reference: Reference.algorithm),
        .init(
            "native-id-token-unknown-kid", "native: signed by a key not in the set", expect: .refuse, flow: .native,
            [ForgedSignature(signature: .unpublishedKey)], hint: "refuse unknown kids after a refetch", reference: Reference.authenticating),
        .init(
            "native-id-token-wrong-issuer", "native: another iss", expect: .refuse, flow: .native,
            [WrongIssuer()], hint: "require Apple's issuer", reference: Reference.idTokenValidation),
        .init(
            "native-id-token-wrong-audience", "native: tokens for another app", expect: .refuse, flow: .native,
            [WrongAudience()], hint: "require aud to be your bundle id", reference: Reference.idTokenValidation),
        .init(
            "native-id-token-expired", "native: expired tokens", expect: .refuse, flow: .native,
            [ExpiredToken()], hint: "refuse tokens past exp", reference: Reference.idTokenValidation),
        .init(
            "native-id-token-nonce-mismatch", "native: the tokens' nonce is not the hash of the nonce sent", expect: .refuse, flow: .native,
            [NonceMismatch()], hint: "compare SHA-256(nonce) with the token's nonce", reference: Reference.nonce),
        .init(
            "native-code-rejected-by-apple", "native: Apple answers invalid_grant for the code", expect: .refuse, flow: .native,
            [AppleRefusesCode()], hint: "redeem the native authorization code and refuse when Apple refuses it",
            reference: Reference.tokenEndpoint),
        .init(
            "native-token-without-code", "native: a valid identity token with no authorization code (rest-auth: an invented access_token)",
            expect: .refuse, flow: .native, [WithoutCode()],
            hint:
                "require the authorization code and redeem it at APPLE/auth/token before signing in: a token alone proves no fresh sign-in "
                + "(one captured from any other sign-in of the app passes), and without the code there is no refresh token to revoke",
            reference: Reference.tokenEndpoint),
        .init(
            "native-token-replay", "native: the same identity token, code and nonce posted again after an accepted sign-in", expect: .refuse,
            flow: .native, [CredentialReplayed()],
            hint: "redeem the code (Apple redeems each once) or spend the nonce once: a credential that signed in once must not sign in again",
            reference: Reference.nonce),
        .init(
            "native-no-email", "native: a new Apple ID whose token has no email (Work & School without a shared email)", expect: .accept,
            flow: .native, [WithoutEmail()],
            hint: "find and create accounts by `sub`; email is optional (managed Apple Accounts, and users who never share it)",
            reference: Reference.workAndSchool),
        .init(
            "native-private-email", "native: a new Apple ID that hid its email: a privaterelay.appleid.com address", expect: .accept,
            flow: .native, [HiddenEmail(domain: .privateRelay)],
            hint: "accept relay addresses (is_private_email true) as the account's email", reference: Reference.relay),
        .init(
            "native-private-email-icloud", "native: a new Apple ID that hid its email: a private.icloud.com relay address", expect: .accept,
            flow: .native, [HiddenEmail(domain: .privateICloud)],
            hint: "accept every Apple relay domain (privaterelay.appleid.com, private.icloud.com, icloud.com); never allow-list one",
            reference: Reference.relay),
        .init(
            "native-private-email-icloud-com", "native: a new Apple ID that hid its email: an older relay address on icloud.com",
            expect: .accept, flow: .native, [HiddenEmail(domain: .iCloud)],
            hint: "trust is_private_email, never the domain: older Hide My Email addresses live on icloud.com beside real iCloud addresses",
            reference: Reference.relay),
        .init(
            "native-apple-unavailable", "native: Apple's token endpoint answers 503 for the code", expect: .refuse, flow: .native,
            [AppleUnavailable()],
            hint: "when Apple fails, refuse the sign-in with an error of your own (4xx, or 502/503 with a JSON error), promptly; never a crash",
            reference: Reference.appleFailing),
        .init(
            "native-apple-invalid-client", "native: Apple's token endpoint answers 401 invalid_client for a good secret", expect: .refuse,
            flow: .native, [AppleRefusesClient()],
            hint: "treat invalid_client from Apple as a failed sign-in (and an alert), never as a success", reference: Reference.appleFailing),
        .init(
            "native-apple-malformed-answer", "native: Apple's token endpoint answers 200 with a body that is not JSON", expect: .refuse,
            flow: .native, [AppleAnswersMalformed()],
            hint: "parse Apple's token response and require its tokens: an answer you cannot read is a failed redemption, not a sign-in",
            reference: Reference.appleFailing),
        .init(
            "native-apple-slow", "native: Apple's token endpoint holds its answer for the code past the stall bound (15 s)",
            expect: .refuse, flow: .native, [AppleSlow()],
            hint:
                "put a deadline on every call to Apple (Juice waits 10 s) and refuse the sign-in when it passes, with a 4xx or a "
                + "502/503/504 JSON error: a backend that waits as long as Apple does ties up a worker per sign-in while Apple is slow",
            reference: Reference.appleFailing),
        .init(
            "native-issuer-drift", "native: a valid sign-in while discovery names the issuer https://account.apple.com (tokens keep theirs)",
            expect: .accept, flow: .native, [DiscoveryIssuerDrift()],
            hint:
                "expect the issuer Apple's tokens carry (https://appleid.apple.com), configured, never taken from discovery: Apple's "
                + "discovery document changed its issuer in June 2025 while tokens did not",
            reference: Reference.issuerDrift),
    ]

    /// Cases that judge the web and native sign-ins together.
    static let audienceCases: [ConformanceCase] = [
        .init(
            "several-audiences",
            "one backend, two audiences: the web sign-in (Services ID) and the native one (bundle id) each accepted on its own path, "
                + "a native token for a third client id of the team (BUNDLE.watchkitapp) refused",
            expect: .accept, flow: .audiences,
            hint:
                "configure every client id you serve (the Services ID for the web, the bundle id for apps) and compare aud with each "
                + "exactly: accepting only one refuses the other platform's users, a prefix match accepts the team's other apps",
            reference: Reference.audiences)
    ]

    static let notificationCases: [ConformanceCase] = [
        .init(
            "notification", "a valid server-to-server notification (email-enabled)", expect: .accept, flow: .notification,
            hint: "verify the notification JWT like an identity token and answer 2xx", reference: Reference.notifications),
        .init(
            "notification-bad-signature", "notification whose signature does not verify", expect: .refuse, flow: .notification,
            [ForgedSignature(signature: .corrupted)], hint: "verify the notification's RS256 signature with Apple's keys",
            reference: Reference.notifications),
        .init(
            "notification-wrong-audience", "notification for another app", expect: .refuse, flow: .notification,
            [WrongAudience()], hint: "require the notification's aud to be your own client id",
            reference: Reference.notifications),
        .init(
            "consent-revoked-ends-session", "a signed-in user, then a consent-revoked notification: the session must stop working",
            expect: .refuse, flow: .sessionAfterNotification, [NotificationEvent(type: "consent-revoked")],
            hint: "on consent-revoked, end the user's sessions and tokens (the user stopped using Sign in with Apple with your app)",
            reference: Reference.notifications),
        .init(
            "account-delete-ends-session", "a signed-in user, then an account-delete notification: the session must stop working",
            expect: .refuse, flow: .sessionAfterNotification, [NotificationEvent(type: "account-delete")],
            hint: "on account-delete, end the user's sessions and delete or detach the account", reference: Reference.notifications),
        .init(
            "notification-issuer-drift",
            "a valid notification while Apple's discovery names the issuer https://account.apple.com (notifications keep theirs)",
            expect: .accept, flow: .notification, [DiscoveryIssuerDrift()],
            hint:
                "verify notifications against the issuer Apple's JWTs carry (https://appleid.apple.com), configured, never taken from "
                + "discovery: a backend that refuses them loses every consent-revoked and account-delete while discovery disagrees",
            reference: Reference.issuerDrift),
        .init(
            "notification-keys-unavailable",
            "after a notification, Apple's key endpoint answers 503 and a second valid notification follows", expect: .accept,
            level: .recommended, flow: .notification, [KeysUnavailable()],
            hint:
                "verify notifications with the key set you cached (keep the last good keys when a refetch fails); when you cannot "
                + "verify at all, answer 5xx so Apple delivers again, never 2xx unverified nor a 4xx that drops the event",
            reference: Reference.keyRotation),
        .init(
            "notification-events-object", "a valid notification whose events claim is a JSON object, not the string Apple sends",
            expect: .accept, level: .recommended, flow: .notification, [EventsAsObject()],
            hint:
                "read events as Apple sends it (a string holding JSON) and also as an object: a library or a proxy that re-encodes the "
                + "claims delivers the object, and a backend that only parses the string loses the event",
            reference: Reference.notifications),
    ]

    static let recommended: [ConformanceCase] = [
        .init(
            "authorization-request-nonce", "the authorization request carries a nonce", expect: .accept, level: .recommended,
            flow: .authorizationRequest,
            hint: "send a fresh nonce with every authorization request, keep it with the state, and require it in the identity token",
            reference: Reference.nonce),
        .init(
            "id-token-code-hash-mismatch", "form_post identity token whose c_hash does not match the code", expect: .refuse, level: .recommended,
            [CodeHashMismatch()],
            hint: "check c_hash (left half of SHA-256 of the code, base64url) so a token cannot travel with another code",
            reference: Reference.hybridToken),
        .init(
            "id-token-nonce-missing", "identity tokens without nonce (nonce_supported false) although the backend sent one",
            expect: .refuse, level: .recommended, [NonceMissing()],
            hint: "when you sent a nonce, require it in the token whatever nonce_supported says", reference: Reference.nonce),
        .init(
            "id-token-issued-in-future", "identity tokens whose iat is an hour ahead", expect: .refuse, level: .recommended,
            [IssuedAhead(seconds: 3_600)], hint: "refuse tokens issued in the future beyond a small clock skew",
            reference: Reference.issuedAt),
        .init(
            "id-token-issued-seconds-ahead", "identity tokens whose iat is 5 s ahead (Apple's clock a little fast)", expect: .accept,
            level: .recommended, [IssuedAhead(seconds: 5)],
            hint: "allow a clock skew of a minute or so when checking iat (PyJWT: leeway=60)", reference: Reference.issuedAt),
        .init(
            "web-keys-unavailable", "after a web sign-in, Apple's key endpoint answers 503 and a fresh sign-in follows", expect: .accept,
            level: .recommended, [KeysUnavailable()],
            hint:
                "cache Apple's key set (it says how long in Cache-Control) and keep the last good keys when a refetch fails: a backend that "
                + "fetches the keys for every sign-in cannot sign anyone in while Apple's key endpoint is down or slow",
            reference: Reference.keyRotation),
        .init(
            "web-keys-slow", "after a web sign-in, Apple's key endpoint holds its answer past the stall bound while a fresh sign-in follows",
            expect: .accept, level: .recommended, [KeysSlow()],
            hint: "cache Apple's key set and put a deadline on its refetch: a backend that fetches the keys for every sign-in waits as "
                + "long as Apple's key endpoint does",
            reference: Reference.keyRotation),
        .init(
            "native-keys-slow",
            "native: after a sign-in, Apple's key endpoint holds its answer past the stall bound while a fresh credential is posted",
            expect: .accept, level: .recommended, flow: .native, [KeysSlow()],
            hint: "cache Apple's key set and put a deadline on its refetch: a backend that fetches the keys for every sign-in waits as "
                + "long as Apple's key endpoint does",
            reference: Reference.keyRotation),
        .init(
            "native-keys-unavailable", "native: after a sign-in, Apple's key endpoint answers 503 and a fresh credential signs in",
            expect: .accept, level: .recommended, flow: .native, [KeysUnavailable()],
            hint:
                "cache Apple's key set (it says how long in Cache-Control) and keep the last good keys when a refetch fails: a backend that "
                + "fetches the keys for every sign-in cannot sign anyone in while Apple's key endpoint is down or slow",
            reference: Reference.keyRotation),
        .init(
            "client-secret-lifetime", "the backend's client secrets verify and live at most six months", expect: .accept,
            level: .recommended, flow: .clientSecrets,
            hint: "sign client secrets with ES256 by your team key, iss=team id, sub=client id, aud=https://appleid.apple.com, exp-iat ≤ 15777000 s",
            reference: Reference.clientSecret),
    ]

    /// Key rotation on the native flow: the same judgement, after the web one.
    static let nativeKeyRotation = ConformanceCase(
        "native-key-rotation", "native: Apple rotates to a new key and kid the backend has never seen; the next native sign-in uses it",
        expect: .accept, flow: .native, [KeyRotation()],
        hint: keyRotation.hint, reference: Reference.keyRotation)

    static let keyRotation = ConformanceCase(
        "key-rotation", "Apple rotates to a new key and kid the backend has never seen; the next sign-in uses it", expect: .accept,
        [KeyRotation()],
        hint:
            "on an unknown kid, refetch Apple's key set at once (rate-limited to about one fetch per 10 s) before refusing; never pin keys. "
            + "A longer refetch cooldown refuses every sign-in for as long after a rotation: PyJWT's PyJWKClient waits "
            + "cooldown_duration (30 s by default) after a fetch; pass cooldown_duration=10",
        reference: Reference.keyRotation)

    /// Where each rule comes from.
    enum Reference {
        static let authenticating =
            "Apple: Authenticating users with Sign in with Apple, Verify the identity token "
            + "(https://developer.apple.com/documentation/signinwithapple/authenticating-users-with-sign-in-with-apple)"
        static let userObject =
            "Apple: Request an authorization to the Sign in with Apple server, the user object is sent only once "
            + "(https://developer.apple.com/documentation/signinwithapplerestapi/request-an-authorization-to-the-sign-in-with-apple-server)"
        static let relay =
            "Apple: Communicating using the private email relay service "
            + "(https://developer.apple.com/documentation/signinwithapple/communicating-using-the-private-email-relay-service); "
            + "Apple Developer news 2026-06-15: new relay addresses on private.icloud.com beside privaterelay.appleid.com and icloud.com "
            + "(https://developer.apple.com/news/?id=1ptvdtcm)"
        static let emailBooleans =
            "Apple: Authenticating users with Sign in with Apple (email_verified, is_private_email: a string or a Boolean); "
            + "auth0/auth0-cli#840 (2023-09-12: strings refused), nicokaiser/passport-apple#86 (2024-02-07), "
            + "nhost/hasura-auth#599 (2024-12-16: booleans refused)"
        static let tokenEndpoint =
            "Apple: Generate and validate tokens (https://developer.apple.com/documentation/signinwithapplerestapi/generate-and-validate-tokens); "
            + "TN3107: Resolving Sign in with Apple response errors; pennersr/django-allauth#2836 (2021-04-19: Apple answered invalid_grant)"
        static let appleFailing =
            "Apple: Generate and validate tokens (https://developer.apple.com/documentation/signinwithapplerestapi/generate-and-validate-tokens); "
            + "RFC 9110 §15.6.3-15.6.5 (502, 503, 504: an upstream's failure); ananay/passport-apple#52 (2024-04-23: Apple's token "
            + "endpoint failing surfaced as a 500)"
        static let tokenValidation = "OpenID Connect Core 1.0 §3.1.3.7 ID Token Validation (the token endpoint's id_token)"
        static let hybridToken = "OpenID Connect Core 1.0 §3.3.2.11 ID Token (hybrid flow, c_hash) and §3.3.2.12 ID Token Validation"
        static let idTokenValidation = "OpenID Connect Core 1.0 §3.1.3.7 ID Token Validation, steps 2, 3 and 9"
        static let algorithm = "RFC 8725 §3.1 Perform Algorithm Verification; OpenID Connect Core 1.0 §3.1.3.7 step 6"
        static let nonce = "OpenID Connect Core 1.0 §3.1.2.1 (nonce), §3.1.3.7 step 11 and §15.5.2 Nonce Implementation Notes"
        static let state = "RFC 6749 §10.12 Cross-Site Request Forgery; RFC 9700 §4.7"
        static let issuedAt = "RFC 7519 §4.1.6 iat; OpenID Connect Core 1.0 §3.1.3.7 step 10"
        static let revoke =
            "Apple: Revoke tokens (https://developer.apple.com/documentation/signinwithapplerestapi/revoke-tokens); "
            + "App Review Guideline 5.1.1(v) account deletion"
        static let notifications =
            "Apple: Processing changes for Sign in with Apple accounts "
            + "(https://developer.apple.com/documentation/signinwithapple/processing-changes-for-sign-in-with-apple-accounts)"
        static let clientSecret =
            "Apple: Creating a client secret (https://developer.apple.com/documentation/accountorganizationaldatasharing/creating-a-client-secret); "
            + "mikebronner/laravel-sign-in-with-apple#9 (2020-01-20: a secret living over six months, invalid_client)"
        static let keyRotation =
            "OpenID Connect Core 1.0 §10.1.1 Rotation of Asymmetric Signing Keys; lupidan/apple-signin-unity#146 (2022-04-21: Apple's "
            + "key set changed, cached keys refused every token); parse-community/parse-server#6408 (2020-02-14: several kids, refetch "
            + "on an unknown one)"
        static let issuerDrift =
            "OpenID Connect Discovery 1.0 §4.3 (the issuer must match the tokens'); from 2025-06-11 Apple's discovery named "
            + "https://account.apple.com while tokens kept https://appleid.apple.com: nextauthjs/next-auth#13047 (2025-06-11), "
            + "supabase/auth#2051 (2025-06-11), ory/kratos#4433 (2025-06-11, web sign-in)"
        static let audiences =
            "OpenID Connect Core 1.0 §3.1.3.7 step 3 (aud must contain the client's own client_id); SocialiteProviders/Providers#1483 "
            + "(a backend configured with the Services ID refused its iOS app's tokens)"
        static let workAndSchool =
            "Apple: Sign in with Apple at Work & School, apps may receive no email "
            + "(https://developer.apple.com/documentation/signinwithapple/sign-in-with-apple-at-work-and-school)"
    }
}
