/// The authenticator data of a registration or an assertion (WebAuthn §6.1): the RP ID hash, the
/// flags, the signature counter, the attested credential data when AT is set and the extension
/// outputs when ED is set, and nothing after them.
package struct AuthenticatorData: Sendable {
    /// The attested credential data (§6.5.1), present at registration.
    package struct AttestedCredential: Sendable {
        /// The authenticator model's AAGUID (16 bytes, all zero for `none` attestation).
        package let aaguid: [UInt8]
        /// The credential id (at most 1023 bytes).
        package let credentialID: [UInt8]
        /// The COSE_Key bytes exactly as the authenticator wrote them (what the server stores).
        package let publicKeyBytes: [UInt8]
        /// The key read from them.
        package let publicKey: COSEKey
    }

    /// The longest credential id WebAuthn allows.
    package static let maximumCredentialIDLength = 1023

    /// The bytes as received (what signatures cover).
    package let bytes: [UInt8]
    /// SHA-256 of the RP ID the authenticator scoped the credential to.
    package let rpIDHash: [UInt8]
    /// The flags byte.
    package let flags: UInt8
    /// The signature counter (0 when the authenticator keeps none).
    package let signCount: UInt32
    /// Present when the AT flag is set.
    package let attestedCredential: AttestedCredential?
    /// The extension outputs map, present when the ED flag is set.
    package let extensions: CBORValue?

    /// UP: the user touched the authenticator.
    package var userPresent: Bool { flags & 0x01 != 0 }
    /// UV: the authenticator verified the user (biometrics, PIN).
    package var userVerified: Bool { flags & 0x04 != 0 }
    /// BE: the credential may be backed up (synced).
    package var backupEligible: Bool { flags & 0x08 != 0 }
    /// BS: the credential is backed up now.
    package var backedUp: Bool { flags & 0x10 != 0 }

    package init(_ bytes: [UInt8]) throws(PasskeyError) {
        guard bytes.count >= 37 else { throw Self.malformed("it is \(bytes.count) bytes, shorter than 37") }
        self.bytes = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = bytes[32]
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags & 0x40 != 0 {
            guard bytes.count >= offset + 18 else { throw Self.malformed("the attested credential data is truncated") }
            let aaguid = Array(bytes[offset..<offset + 16])
            let length = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard length >= 1, length <= Self.maximumCredentialIDLength else {
                throw Self.malformed("the credential id is \(length) bytes, not 1 to \(Self.maximumCredentialIDLength)")
            }
            guard bytes.count - offset > length else { throw Self.malformed("the credential id or key is truncated") }
            let credentialID = Array(bytes[offset..<offset + length])
            offset += length
            let (keyValue, end) = try Self.decodeItem(bytes, from: offset, "the credential public key")
            let publicKey = try COSEKey(keyValue)
            attestedCredential = AttestedCredential(
                aaguid: aaguid, credentialID: credentialID, publicKeyBytes: Array(bytes[offset..<end]), publicKey: publicKey)
            offset = end
        } else {
            attestedCredential = nil
        }
        if flags & 0x80 != 0 {
            guard offset < bytes.count else { throw Self.malformed("the ED flag is set and no extensions follow") }
            let (value, end) = try Self.decodeItem(bytes, from: offset, "the extension outputs")
            guard case .map = value else { throw Self.malformed("the extension outputs are not a map") }
            extensions = value
            offset = end
        } else {
            extensions = nil
        }
        guard offset == bytes.count else { throw Self.malformed("\(bytes.count - offset) bytes follow the authenticator data") }
    }

    private static func decodeItem(_ bytes: [UInt8], from offset: Int, _ what: String) throws(PasskeyError) -> (CBORValue, Int) {
        do {
            return try CBORDecoder().decodePrefix(bytes, from: offset)
        } catch {
            throw .malformedCBOR(error, in: what)
        }
    }

    private static func malformed(_ reason: String) -> PasskeyError {
        PasskeyError(.malformedAuthenticatorData, "the authenticator data: \(reason)")
    }
}
