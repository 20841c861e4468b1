import Crypto
import Foundation
import JuiceEncodings
import JuiceTestSupport

/// A passkey authenticator for the API tests, built from swift-crypto's P-256 and SHA-256 and its own
/// few lines of CBOR (none of the server's WebAuthn code): it answers creation and request options as
/// `PublicKeyCredential.toJSON()` would.
struct TestAuthenticator: Sendable {
    let key = P256.Signing.PrivateKey()
    let credentialID: [UInt8] = (0..<16).map { _ in UInt8.random(in: 0...255) }
    /// The counter the next assertion carries (an authenticator adds one per use).
    var signCount: UInt32 = 0
    /// The user handle stored at registration, returned by assertions.
    var userHandle: [UInt8] = []
    /// The RP ID it scopes its credential to.
    var rpID: String

    init(rpID: String) {
        self.rpID = rpID
    }

    /// The body for `POST /api/passkeys/registration`, from the `publicKey` options of the begin call.
    /// `aaguid` is the authenticator model it names (16 bytes; zero: none).
    mutating func register(
        _ options: [String: Any], origin: String, name: String = "Test key", flags: UInt8 = 0x45, aaguid: [UInt8] = [UInt8](repeating: 0, count: 16)
    ) -> [String: Any] {
        let challenge = options["challenge"] as? String ?? ""
        userHandle = ((options["user"] as? [String: Any])?["id"] as? String).flatMap { Base64URL.decode($0) } ?? []
        let clientData = Self.clientData("webauthn.create", challenge: challenge, origin: origin)
        let point = Array(key.publicKey.x963Representation)
        let coseKey: [UInt8] = [0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20] + point[1..<33] + [0x22, 0x58, 0x20] + point[33..<65]
        let authData =
            rpIDHash + [flags] + Self.bigEndian(signCount) + aaguid
            + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)] + credentialID + coseKey
        let attestationObject: [UInt8] =
            [0xA3] + Self.text("fmt") + Self.text("none") + Self.text("attStmt") + [0xA0]
            + Self.text("authData") + Self.byteString(authData)
        return [
            "id": Base64URL.encode(credentialID), "rawId": Base64URL.encode(credentialID), "type": "public-key", "name": name,
            "response": [
                "clientDataJSON": Base64URL.encode(clientData), "attestationObject": Base64URL.encode(attestationObject),
                "transports": ["internal", "carrier-pigeon"],
            ],
        ]
    }

    /// The body for `POST /api/auth/passkey`, from the `publicKey` options of the begin call; the
    /// counter goes up by one first.
    mutating func assert(_ options: [String: Any], origin: String, flags: UInt8 = 0x05) throws -> [String: Any] {
        signCount += 1
        let clientData = Self.clientData("webauthn.get", challenge: options["challenge"] as? String ?? "", origin: origin)
        let authData = rpIDHash + [flags] + Self.bigEndian(signCount)
        let signature = try key.signature(for: authData + Array(SHA256.hash(data: clientData))).derRepresentation
        return [
            "id": Base64URL.encode(credentialID), "type": "public-key",
            "response": [
                "clientDataJSON": Base64URL.encode(clientData), "authenticatorData": Base64URL.encode(authData),
                "signature": Base64URL.encode(signature), "userHandle": Base64URL.encode(userHandle),
            ],
        ]
    }

    private var rpIDHash: [UInt8] { Array(SHA256.hash(data: Array(rpID.utf8))) }

    private static func clientData(_ type: String, challenge: String, origin: String) -> [UInt8] {
        Array("{\"type\":\"\(type)\",\"challenge\":\"\(challenge)\",\"origin\":\"\(origin)\",\"crossOrigin\":false}".utf8)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }

    private static func text(_ string: String) -> [UInt8] { [0x60 | UInt8(string.utf8.count)] + Array(string.utf8) }

    private static func byteString(_ bytes: [UInt8]) -> [UInt8] {
        let head: [UInt8] =
            bytes.count < 24
            ? [0x40 | UInt8(bytes.count)]
            : bytes.count < 256 ? [0x58, UInt8(bytes.count)] : [0x59, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)]
        return head + bytes
    }
}
