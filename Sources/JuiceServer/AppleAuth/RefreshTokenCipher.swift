import Crypto
import Foundation

/// Seals Apple refresh tokens for storage with AES-256-GCM; the Apple `sub` is bound as
/// authenticated data, so a sealed token copied to another row does not open.
struct RefreshTokenCipher: Sendable {
    private let key: SymmetricKey

    /// Creates a cipher with a 256-bit key.
    init(key: SymmetricKey) {
        precondition(key.bitCount == 256, "the refresh-token key must be 32 bytes")
        self.key = key
    }

    /// The sealed token (nonce ‖ ciphertext ‖ tag), base64.
    func seal(_ token: String, subject: String) throws -> String {
        let box = try AES.GCM.seal(Array(token.utf8), using: key, authenticating: Array(subject.utf8))
        guard let combined = box.combined else { throw RefreshTokenCipherError.sealFailed }
        return combined.base64EncodedString()
    }

    /// Opens a sealed token; throws when it was altered, sealed with another key or for another `sub`.
    func open(_ sealed: String, subject: String) throws -> String {
        guard let data = Data(base64Encoded: sealed), let box = try? AES.GCM.SealedBox(combined: data),
            let plain = try? AES.GCM.open(box, using: key, authenticating: Array(subject.utf8))
        else { throw RefreshTokenCipherError.cannotOpen }
        return String(decoding: plain, as: UTF8.self)
    }
}
