@_spi(Fuzzing) import AppleSignIn
import Foundation
import FuzzSupport

// Input: one flags byte, then the rest.
// - bit 0 clear: the rest is a compact JWS, verified through the public `IdentityTokenVerifier.verify`
//   (shape, header, key choice, RS256 signature, then every claim rule) and through the claim rules
//   alone, as if its signature were good;
// - bit 0 set: the rest is the JSON payload of a token taken as validly signed (what someone holding a
//   signed token controls), checked by the claim rules and decoded.
// - bit 1: the request carried `FuzzApple.nonce`; bit 2: `FuzzApple.authorizationCode` came with the
//   token (c_hash checked); bit 3: the nonce is required (the web flow).
// Every accepted token must satisfy the rules it passed; a trap or a violated property is a finding.

let verifier = IdentityTokenVerifier(
    keys: FuzzApple.keys, issuer: FuzzApple.issuer, audiences: FuzzApple.audiences, time: .fixed(FuzzApple.now)
)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIdentityToken(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let flags = data[0]
    let rest = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let nonce = flags & 2 != 0 ? FuzzApple.nonce : nil
    let code = flags & 4 != 0 ? FuzzApple.authorizationCode : nil
    let requiresNonce = flags & 8 != 0
    let token = flags & 1 == 0 ? String(decoding: rest, as: UTF8.self) : FuzzApple.unsignedToken(payload: rest)

    if let accepted = try? FuzzingEntryPoints.identityToken(
        token, verifier: verifier, now: FuzzApple.now, nonce: nonce, authorizationCode: code, requiresNonce: requiresNonce
    ) {
        check(accepted, nonce: nonce, requiresNonce: requiresNonce)
    }
    if flags & 1 == 0 {
        let accepted = runBlocking {
            try? await verifier.verify(token, nonceClaim: nonce, authorizationCode: code, requiresNonce: requiresNonce)
        }
        if let accepted { check(accepted, nonce: nonce, requiresNonce: requiresNonce) }
    }
    return 0
}

/// What holds for every token the verifier accepts.
func check(_ token: IdentityToken, nonce: String?, requiresNonce: Bool) {
    fuzzRequire(token.issuer == FuzzApple.issuer, "accepted issuer \(token.issuer)")
    fuzzRequire(FuzzApple.audiences.contains(token.audience), "accepted audience \(token.audience)")
    fuzzRequire(!token.subject.isEmpty, "accepted an empty subject")
    let now = FuzzApple.now.timeIntervalSince1970
    fuzzRequire(token.expiresAt.timeIntervalSince1970 + FuzzApple.clockSkew >= now, "accepted an expired token")
    fuzzRequire(token.issuedAt.timeIntervalSince1970 <= now + FuzzApple.clockSkew, "accepted a token issued in the future")
    if let nonce {
        if token.nonce != nil || requiresNonce {
            fuzzRequire(token.nonce == nonce, "accepted nonce \(token.nonce ?? "none") instead of \(nonce)")
        } else {
            fuzzRequire(token.nonceSupported == false, "accepted a token without a nonce that does not say nonce_supported: false")
        }
    }
}
