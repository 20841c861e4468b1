import Crypto
import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A JWS in compact serialization, split and decoded but not yet verified.
///
/// Parsing works on the token's UTF-8 bytes throughout (no `Character` processing): verification runs
/// on every sign-in and its cost should be the RSA check, not string handling.
struct CompactJWS: Sendable {
    /// The decoded protected header.
    let header: ClaimSet
    /// The decoded payload (claims).
    let claims: ClaimSet
    /// SHA-256 of `base64url(header) + "." + base64url(payload)`, the bytes the signature covers.
    let signingInputDigest: SHA256Digest
    /// The raw signature bytes.
    let signature: [UInt8]

    /// The header's `alg`.
    var algorithm: String? { header[.alg]?.stringValue }
    /// The header's `kid`.
    var keyID: String? { header[.kid]?.stringValue }

    /// The largest token accepted; Apple's identity tokens are about 1 KB.
    static let maximumLength = 16 * 1024

    /// Splits and decodes `token`; throws `malformed` for anything that is not a three-part JWS with JSON objects.
    init(parsing token: String) throws(TokenVerificationError) {
        var token = token
        let parsed: Result<CompactJWS, TokenVerificationError> = token.withUTF8 { bytes in
            do throws(TokenVerificationError) {
                return .success(try CompactJWS(bytes: bytes))
            } catch {
                return .failure(error)
            }
        }
        self = try parsed.get()
    }

    /// Parses the token's UTF-8 in place: no copy of the token, and the signing input is hashed here,
    /// while its bytes are at hand.
    private init(bytes: UnsafeBufferPointer<UInt8>) throws(TokenVerificationError) {
        guard bytes.count <= Self.maximumLength else {
            throw .malformed("the token is longer than \(Self.maximumLength) bytes")
        }
        let firstDot = CLibrary.firstIndex(of: UInt8(ascii: "."), in: bytes, from: 0)
        let secondDot = firstDot.flatMap { CLibrary.firstIndex(of: UInt8(ascii: "."), in: bytes, from: $0 + 1) }
        let thirdDot = secondDot.flatMap { CLibrary.firstIndex(of: UInt8(ascii: "."), in: bytes, from: $0 + 1) }
        guard let firstDot, let secondDot, thirdDot == nil else {
            let dotCount = [firstDot, secondDot, thirdDot].compactMap { $0 }.count
            throw .malformed("a JWS has three dot-separated parts; this has \(dotCount + 1)\(dotCount > 2 ? " or more" : "")")
        }
        let dots = (firstDot, secondDot)
        let header = try Self.decodeObject(UnsafeBufferPointer(rebasing: bytes[..<dots.0]), part: "header")
        let claims = try Self.decodeObject(UnsafeBufferPointer(rebasing: bytes[(dots.0 + 1)..<dots.1]), part: "payload")
        guard let signature = Base64URL.decode(UnsafeBufferPointer(rebasing: bytes[(dots.1 + 1)...])) else {
            throw .malformed("the signature is not base64url")
        }
        self.header = header
        self.claims = claims
        self.signature = signature
        var hasher = SHA256()
        hasher.update(bufferPointer: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[..<dots.1])))
        self.signingInputDigest = hasher.finalize()
    }

    /// Decodes a base64url part into memory of this call (the stack, for a token's size) and parses the
    /// JSON object in it.
    private static func decodeObject(_ text: UnsafeBufferPointer<UInt8>, part: String) throws(TokenVerificationError) -> ClaimSet {
        guard let count = Base64URL.decodedCount(text) else { throw .malformed("the \(part) is not base64url") }
        let parsed: Result<ClaimSet, TokenVerificationError> = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
            guard let written = Base64URL.decode(text, into: buffer) else { return .failure(.malformed("the \(part) is not base64url")) }
            guard let object = try? JSONParser.parseObjectMembers(UnsafeBufferPointer(rebasing: buffer[..<written])) else {
                return .failure(.malformed("the \(part) is not a JSON object"))
            }
            return .success(object)
        }
        return try parsed.get()
    }
}
