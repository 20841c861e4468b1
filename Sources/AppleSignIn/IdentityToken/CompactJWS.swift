import Crypto

/// A JWS in compact serialization, split and decoded but not yet verified.
struct CompactJWS: Sendable {
    /// The decoded protected header.
    let header: [String: JSONValue]
    /// The decoded payload (claims).
    let claims: [String: JSONValue]
    /// `base64url(header) + "." + base64url(payload)`, the bytes the signature covers.
    let signingInput: Substring.UTF8View
    /// The raw signature bytes.
    let signature: [UInt8]

    /// The header's `alg`.
    var algorithm: String? { header["alg"]?.stringValue }
    /// The header's `kid`.
    var keyID: String? { header["kid"]?.stringValue }

    /// The largest token accepted; Apple's identity tokens are about 1 KB.
    static let maximumLength = 16 * 1024

    /// Splits and decodes `token`; throws `malformed` for anything that is not a three-part JWS with JSON objects.
    init(parsing token: String) throws(TokenVerificationError) {
        guard token.utf8.count <= Self.maximumLength else {
            throw .malformed("the token is longer than \(Self.maximumLength) bytes")
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw .malformed("a JWS has three dot-separated parts; this has \(parts.count)")
        }
        guard let headerBytes = Base64URL.decode(parts[0]) else { throw .malformed("the header is not base64url") }
        guard let payloadBytes = Base64URL.decode(parts[1]) else { throw .malformed("the payload is not base64url") }
        guard let signature = Base64URL.decode(parts[2]) else { throw .malformed("the signature is not base64url") }
        guard case .object(let header)? = try? JSONParser.parse(headerBytes) else {
            throw .malformed("the header is not a JSON object")
        }
        guard case .object(let claims)? = try? JSONParser.parse(payloadBytes) else {
            throw .malformed("the payload is not a JSON object")
        }
        self.header = header
        self.claims = claims
        self.signature = signature
        let signedEnd = parts[1].endIndex
        self.signingInput = token[token.startIndex..<signedEnd].utf8
    }

    /// SHA-256 of the signing input.
    var signingInputDigest: SHA256Digest {
        var hasher = SHA256()
        signingInput.withContiguousStorageIfAvailable { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
            ?? hasher.update(data: Array(signingInput))
        return hasher.finalize()
    }
}
