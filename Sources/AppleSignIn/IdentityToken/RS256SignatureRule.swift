import CryptoExtras
import JuiceEncodings

/// Checks a compact JWS's RS256 signature against Apple's key set.
///
/// Shared by identity tokens and server notifications: only `alg` RS256 is accepted (never `none`,
/// HS*, ES* or PS*), the key is chosen by the header's `kid` and nothing else (no default key), and
/// the signature is PKCS#1 v1.5 over SHA-256.
struct RS256SignatureRule: Sendable {
    let keys: AppleKeySet

    /// Returns the decoded token when its signature is valid.
    func verify(_ token: String) async throws(TokenVerificationError) -> CompactJWS {
        let jws = try CompactJWS(parsing: token)
        guard let algorithm = jws.algorithm else { throw .malformed("the header has no \"alg\"") }
        guard algorithm == "RS256" else {
            throw TokenVerificationError(.unsupportedAlgorithm, "Apple signs with RS256; this token says \"\(algorithm.prefix(20))\"")
        }
        if let critical = jws.header[.crit] {
            throw .malformed("the header has critical extensions \(critical.jsonString().prefix(100)) that are not understood")
        }
        guard let kid = jws.keyID, !kid.isEmpty else {
            throw TokenVerificationError(.unknownKey, "the header names no key (\"kid\")")
        }
        let key: _RSA.Signing.PublicKey
        if let fresh = keys.freshKey(for: kid) {
            key = fresh
        } else {
            key = try await keys.key(for: kid)
        }
        guard jws.signature.count == key.keySizeInBits / 8 else {
            throw TokenVerificationError(.badSignature, "the signature has the wrong length for key \"\(kid)\"")
        }
        let signature = _RSA.Signing.RSASignature(rawRepresentation: jws.signature)
        guard key.isValidSignature(signature, for: jws.signingInputDigest, padding: .insecurePKCS1v1_5) else {
            throw TokenVerificationError(.badSignature, "the signature does not verify with Apple's key \"\(kid)\"")
        }
        return jws
    }
}
