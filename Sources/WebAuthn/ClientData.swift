import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The fields of `clientDataJSON` (WebAuthn §5.8.1) the relying party checks. The raw bytes are kept:
/// the signature covers their SHA-256, never a re-encoding.
package struct ClientData: Sendable {
    /// `webauthn.create` or `webauthn.get`.
    package let type: String
    /// The challenge bytes (decoded from strict base64url).
    package let challenge: [UInt8]
    /// The web origin (`https://host[:port]`) or a native app's origin.
    package let origin: String
    /// True when the ceremony ran in a cross-origin frame.
    package let crossOrigin: Bool
    /// The top-level origin of a cross-origin frame.
    package let topOrigin: String?

    /// The longest `clientDataJSON` read, in bytes.
    package static let maximumSize = 4096

    private struct Fields: Decodable {
        let type: String
        let challenge: String
        let origin: String
        let crossOrigin: Bool?
        let topOrigin: String?
    }

    package init(json: [UInt8]) throws(PasskeyError) {
        guard json.count <= Self.maximumSize else {
            throw PasskeyError(.malformedClientData, "clientDataJSON is \(json.count) bytes, over \(Self.maximumSize)")
        }
        let fields: Fields
        do {
            fields = try JSONDecoder().decode(Fields.self, from: Data(json))
        } catch {
            throw PasskeyError(.malformedClientData, "clientDataJSON is not an object with string type, challenge and origin")
        }
        guard let challenge = Base64URL.decode(fields.challenge) else {
            throw PasskeyError(.malformedClientData, "clientDataJSON's challenge is not base64url")
        }
        type = fields.type
        self.challenge = challenge
        origin = fields.origin
        crossOrigin = fields.crossOrigin ?? false
        topOrigin = fields.topOrigin
    }
}
