import Crypto
import Foundation

/// A passkey as the ``CredentialStore`` keeps it in `passkeys.json`: the relying party, the credential
/// id, the user handle, the P-256 private key and the signature counter. Its `description` never
/// shows the key.
struct StoredPasskey: Sendable, Hashable, Codable {
    /// The RP ID it is bound to.
    var relyingPartyIdentifier: String
    /// The credential id (16–32 random bytes when made here).
    var credentialID: Data
    /// The relying party's user handle for the account.
    var userID: Data
    /// The account's user name, as the relying party gave it.
    var userName: String
    /// The P-256 private scalar (32 bytes).
    var privateKey: Data
    /// The counter of the last signature (0 at registration).
    var signCount: UInt32

    /// The longest RP ID: a domain name's limit.
    static let maximumRelyingPartyIdentifierLength = 253
    /// The longest credential id WebAuthn allows.
    static let maximumCredentialIDLength = 1023
    /// The longest user handle WebAuthn allows.
    static let maximumUserIDLength = 64
    /// The longest user name kept.
    static let maximumUserNameLength = 256

    /// The signing key.
    /// - Throws: ``CredentialStoreError/Code/corrupt`` when the bytes are not a P-256 private key.
    func signingKey() throws(CredentialStoreError) -> P256.Signing.PrivateKey {
        do {
            return try P256.Signing.PrivateKey(rawRepresentation: privateKey)
        } catch {
            throw .corrupt("a passkey of \(relyingPartyIdentifier.prefix(100)) has no valid P-256 private key")
        }
    }

    /// Checks what `passkeys.json` cannot promise by its shape: lengths, the key, the counter's room.
    func check() throws(CredentialStoreError) {
        let rp = relyingPartyIdentifier.prefix(100)
        guard (1...Self.maximumRelyingPartyIdentifierLength).contains(relyingPartyIdentifier.utf8.count) else {
            throw .corrupt("a passkey's relying party id is empty or longer than \(Self.maximumRelyingPartyIdentifierLength) bytes")
        }
        guard (1...Self.maximumCredentialIDLength).contains(credentialID.count) else {
            throw .corrupt("a passkey of \(rp) has a credential id of \(credentialID.count) bytes (1 to \(Self.maximumCredentialIDLength))")
        }
        guard (1...Self.maximumUserIDLength).contains(userID.count) else {
            throw .corrupt("a passkey of \(rp) has a user handle of \(userID.count) bytes (1 to \(Self.maximumUserIDLength))")
        }
        guard userName.utf8.count <= Self.maximumUserNameLength else {
            throw .corrupt("a passkey of \(rp) has a user name over \(Self.maximumUserNameLength) bytes")
        }
        _ = try signingKey()
    }
}

extension StoredPasskey: CustomStringConvertible, CustomReflectable {
    var description: String {
        "StoredPasskey(relyingPartyIdentifier: \(relyingPartyIdentifier), userName: \(userName), signCount: \(signCount), privateKey: <redacted>)"
    }

    var customMirror: Mirror {
        Mirror(self, children: ["relyingPartyIdentifier": relyingPartyIdentifier, "userName": userName, "signCount": signCount])
    }
}
