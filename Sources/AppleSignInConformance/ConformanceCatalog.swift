/// Every case the kit runs, in order. Accepting cases come first (they show the backend works at all),
/// key rotation last (so a backend that never refreshes its keys fails that case only).
public enum ConformanceCatalog {
    /// The cases for a run: web cases always, native and notification cases when their endpoints are given.
    public static func cases(native: Bool, notifications: Bool) -> [ConformanceCase] {
        var cases = web
        if native { cases += nativeCases }
        if notifications { cases += notificationCases }
        cases += recommended
        cases.append(keyRotation)
        return cases
    }

    static let web: [ConformanceCase] = [
        .init(
            "sign-in", "new user: name and email in `user`, email booleans as JSON booleans", expect: .accept,
            scenario: .init(person: .newUser),
            hint: "verify the token with the keys at APPLE/auth/keys and redeem the code at APPLE/auth/token; read `user` only on first sign-in"),
        .init(
            "returning-user", "the same Apple ID again, no `user` field", expect: .accept,
            hint: "`user` is sent only on the first authorization: find the account by `sub`, never require name or email"),
        .init(
            "booleans-as-strings", "email_verified and is_private_email as \"true\"/\"false\" strings", expect: .accept,
            scenario: .init(booleans: .strings),
            hint: "Apple sends email_verified/is_private_email as strings or booleans: accept both"),
        .init(
            "private-email", "a new user who hid their email: a privaterelay.appleid.com address", expect: .accept,
            scenario: .init(person: .privateEmailUser),
            hint: "accept relay addresses (is_private_email true) as the account's email"),
        .init(
            "id-token-bad-signature", "identity token whose RS256 signature does not verify", expect: .refuse,
            scenario: .init(defect: .badSignature),
            hint: "verify the RS256 signature with the key named by `kid` from Apple's key set"),
        .init(
            "id-token-alg-none", "identity token with alg \"none\" and no signature", expect: .refuse,
            scenario: .init(defect: .algNone),
            hint: "accept only alg RS256; never let the token choose its algorithm"),
        .init(
            "id-token-hs256-public-key", "identity token signed HS256 with Apple's RSA public key as the HMAC secret", expect: .refuse,
            scenario: .init(defect: .hs256WithPublicKey),
            hint: "pin the algorithm to RS256: a library that takes alg from the header verifies HMAC with the public key"),
        .init(
            "id-token-unknown-kid", "identity token signed by a key that is not in Apple's key set", expect: .refuse,
            scenario: .init(defect: .unknownKeyID),
            hint: "refuse a token whose kid is not in Apple's key set even after a refetch; never fall back to another key"),
        .init(
            "id-token-wrong-issuer", "identity token with another iss", expect: .refuse,
            scenario: .init(defect: .wrongIssuer),
            hint: "require iss to be exactly Apple's issuer (https://appleid.apple.com)"),
        .init(
            "id-token-wrong-audience", "identity token for another app (aud is not your client id)", expect: .refuse,
            scenario: .init(defect: .wrongAudience),
            hint: "require aud to be one of your own client ids (Services ID or bundle id)"),
        .init(
            "id-token-expired", "identity token whose exp passed an hour ago", expect: .refuse,
            scenario: .init(defect: .expired),
            hint: "refuse tokens past exp (allow at most a few minutes of clock skew)"),
        .init(
            "id-token-nonce-mismatch", "identity token carrying a nonce other than the one the backend sent", expect: .refuse,
            scenario: .init(defect: .nonceMismatch),
            hint: "compare the token's nonce with the nonce stored for this state"),
        .init(
            "state-mismatch", "form_post with a state the backend never issued", expect: .refuse,
            scenario: .init(state: .neverIssued),
            hint: "look the state up server-side (or bind it to a SameSite=None cookie) and refuse unknown states"),
        .init(
            "state-replay", "a second form_post with an already consumed state (fresh valid code and token)", expect: .refuse,
            scenario: .init(state: .replayed),
            hint: "consume the state atomically on first use; a used state must never sign in again"),
        .init(
            "code-rejected-by-apple", "valid token, but Apple's token endpoint answers invalid_grant for the code", expect: .refuse,
            scenario: .init(codeRefusedByApple: true),
            hint: "redeem the authorization code at /auth/token and refuse the sign-in when Apple refuses it"),
    ]

    static let nativeCases: [ConformanceCase] = [
        .init(
            "native-sign-in", "native credential: token with the nonce's SHA-256, code, raw nonce, user", expect: .accept, flow: .native,
            scenario: .init(person: .newUser),
            hint: "hash the raw nonce (SHA-256, hex) and compare with the token's nonce; redeem the code with the bundle id"),
        .init(
            "native-id-token-bad-signature", "native: token whose signature does not verify", expect: .refuse, flow: .native,
            scenario: .init(defect: .badSignature), hint: "verify the RS256 signature of native tokens too"),
        .init(
            "native-id-token-alg-none", "native: token with alg none", expect: .refuse, flow: .native,
            scenario: .init(defect: .algNone), hint: "accept only RS256"),
        .init(
            "native-id-token-hs256-public-key", "native: HS256 keyed with Apple's public key", expect: .refuse, flow: .native,
            scenario: .init(defect: .hs256WithPublicKey), hint: "pin the algorithm to RS256"),
        .init(
            "native-id-token-unknown-kid", "native: signed by a key not in the set", expect: .refuse, flow: .native,
            scenario: .init(defect: .unknownKeyID), hint: "refuse unknown kids after a refetch"),
        .init(
            "native-id-token-wrong-issuer", "native: another iss", expect: .refuse, flow: .native,
            scenario: .init(defect: .wrongIssuer), hint: "require Apple's issuer"),
        .init(
            "native-id-token-wrong-audience", "native: token for another app", expect: .refuse, flow: .native,
            scenario: .init(defect: .wrongAudience), hint: "require aud to be your bundle id"),
        .init(
            "native-id-token-expired", "native: expired token", expect: .refuse, flow: .native,
            scenario: .init(defect: .expired), hint: "refuse tokens past exp"),
        .init(
            "native-id-token-nonce-mismatch", "native: the token's nonce is not the hash of the nonce sent", expect: .refuse, flow: .native,
            scenario: .init(defect: .nonceMismatch), hint: "compare SHA-256(nonce) with the token's nonce"),
        .init(
            "native-code-rejected-by-apple", "native: Apple answers invalid_grant for the code", expect: .refuse, flow: .native,
            scenario: .init(codeRefusedByApple: true), hint: "redeem the native authorization code and refuse when Apple refuses it"),
    ]

    static let notificationCases: [ConformanceCase] = [
        .init(
            "notification", "a valid server-to-server notification (email-enabled)", expect: .accept, flow: .notification,
            hint: "verify the notification JWT like an identity token and answer 2xx"),
        .init(
            "notification-bad-signature", "notification whose signature does not verify", expect: .refuse, flow: .notification,
            scenario: .init(defect: .badSignature), hint: "verify the notification's RS256 signature with Apple's keys"),
        .init(
            "notification-wrong-audience", "notification for another app", expect: .refuse, flow: .notification,
            scenario: .init(defect: .wrongAudience), hint: "require the notification's aud to be your own client id"),
    ]

    static let recommended: [ConformanceCase] = [
        .init(
            "id-token-code-hash-mismatch", "identity token whose c_hash does not match the code", expect: .refuse, level: .recommended,
            scenario: .init(defect: .codeHashMismatch),
            hint: "check c_hash (left half of SHA-256 of the code, base64url) so a token cannot travel with another code"),
        .init(
            "id-token-nonce-missing", "identity token without nonce (nonce_supported false) although the backend sent one",
            expect: .refuse, level: .recommended, scenario: .init(defect: .nonceMissing),
            hint: "when you sent a nonce, require it in the token whatever nonce_supported says"),
        .init(
            "id-token-issued-in-future", "identity token whose iat is an hour ahead", expect: .refuse, level: .recommended,
            scenario: .init(defect: .issuedInFuture), hint: "refuse tokens issued in the future beyond a small clock skew"),
        .init(
            "client-secret-lifetime", "the backend's client secrets verify and live at most six months", expect: .accept,
            level: .recommended, flow: .clientSecrets,
            hint: "sign client secrets with ES256 by your team key, iss=team id, sub=client id, aud=https://appleid.apple.com, exp-iat ≤ 15777000 s"),
    ]

    static let keyRotation = ConformanceCase(
        "key-rotation", "Apple rotates to a new key and kid the backend has never seen; the next sign-in uses it", expect: .accept,
        scenario: .init(rotateKeys: true),
        hint: "on an unknown kid, refetch Apple's key set (rate-limited) before refusing; never pin keys")
}
