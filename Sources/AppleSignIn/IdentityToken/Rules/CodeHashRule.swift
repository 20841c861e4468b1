import Crypto
import JuiceEncodings

/// `c_hash` must be base64url(left half of SHA-256(code)) when the code is at hand.
struct CodeHashRule: TokenRule {
    func check(_ claims: ClaimSet, against expected: TokenExpectations) throws(TokenVerificationError) {
        guard let code = expected.authorizationCode else { return }
        guard let codeHash = claims[.cHash]?.stringValue else {
            throw TokenVerificationError(.codeHashMismatch, "an authorization code came with the token but the token has no \"c_hash\"")
        }
        guard constantTimeEquals(codeHash, Self.hash(of: code)) else {
            throw TokenVerificationError(.codeHashMismatch, "the token's c_hash does not match the authorization code it came with")
        }
    }

    /// base64url of the left 16 bytes of SHA-256 of `value` (the OpenID Connect `c_hash`/`at_hash`).
    static func hash(of value: String) -> String {
        var hasher = SHA256()
        var value = value
        value.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        return hasher.finalize().withUnsafeBytes { Base64URL.encode(UnsafeRawBufferPointer(rebasing: $0.prefix(16))) }
    }
}
