import JuiceEncodings

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
        JuiceEncodings.sha256Hex(rawNonce)
    }
}
