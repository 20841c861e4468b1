#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Random identifiers in the shapes Apple uses (from the system's secure generator, via `UUID`).
enum RandomText {
    /// 32 lowercase hex characters.
    static func hex32() -> String {
        UUID().uuidString.lowercased().replacing("-", with: "")
    }

    /// A code, state-like value or nonce that nobody issued.
    static func token() -> String {
        hex32() + hex32()
    }

    /// An Apple user id: `001234.<32 hex>.1234`.
    static func subject() -> String {
        "00\(Int.random(in: 1000...9999)).\(hex32()).\(Int.random(in: 1000...9999))"
    }

    /// A short mixed-case key id, like Apple's (`W6WcOKB`).
    static func keyID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<7).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] })
    }
}
