import Crypto

/// The nonce contract of Sign in with Apple: the server hands out a raw nonce, Apple receives its
/// SHA-256 in lowercase hex, and the identity token carries that hash back for the server to check.
///
/// ```swift
/// let rawNonce = try await api.makeNonce()
/// request.nonce = Nonce.sha256Hex(rawNonce)
/// ```
public enum Nonce {
    /// SHA-256 of the UTF-8 of `rawNonce`, as 64 lowercase hex digits.
    public static func sha256Hex(_ rawNonce: String) -> String {
        SHA256.hash(data: Array(rawNonce.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
