/// What an attestation proved about where a credential came from (WebAuthn §6.5.3).
package enum AttestationType: String, Sendable, Equatable, Codable {
    /// `none`: nothing.
    case none
    /// `packed` signed by the credential key itself: the authenticator holds the key, nothing more.
    case `self`
    /// `packed` with an attestation certificate (x5c) whose leaf passed WebAuthn's checks; the chain
    /// is not checked against a vendor root.
    case basic
}
