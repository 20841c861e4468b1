/// What a ceremony's rules read: the parsed client data and authenticator data, and the credential's key.
package protocol CeremonyEvidence: Sendable {
    /// `clientDataJSON`'s `type` for this ceremony: `webauthn.create` or `webauthn.get`.
    static var ceremonyType: String { get }
    /// `clientDataJSON`, parsed.
    var clientData: ClientData { get }
    /// SHA-256 of the raw `clientDataJSON`: what the attestation or assertion signature covers.
    var clientDataHash: [UInt8] { get }
    /// The authenticator data, read.
    var authenticatorData: AuthenticatorData { get }
    /// The credential's public key: the attested one at registration, the stored one at authentication.
    var credentialKey: COSEKey { get }
}
