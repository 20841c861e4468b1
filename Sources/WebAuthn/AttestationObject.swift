/// An attestation object (WebAuthn §6.5.4): the CBOR map of `fmt`, `attStmt` and `authData`, and
/// nothing else.
package struct AttestationObject: Sendable {
    /// The attestation statement format, e.g. `none` or `packed`.
    package let format: String
    /// The statement (a map whose fields depend on the format).
    package let statement: CBORValue
    /// The authenticator data, read.
    package let authenticatorData: AuthenticatorData

    /// The longest attestation object read, in bytes (a certificate chain fits well within it).
    package static let maximumSize = 32 * 1024

    package init(_ bytes: [UInt8]) throws(PasskeyError) {
        let value: CBORValue
        do {
            value = try CBORDecoder(maximumSize: Self.maximumSize).decode(bytes)
        } catch {
            throw .malformedCBOR(error, in: "the attestation object")
        }
        guard case .map(let entries) = value, entries.count == 3,
            case .text(let format) = value[textKey: "fmt"],
            let statement = value[textKey: "attStmt"], case .map = statement,
            case .bytes(let authData) = value[textKey: "authData"]
        else {
            throw PasskeyError(.badAttestation, "the attestation object is not a map of exactly fmt, attStmt and authData")
        }
        self.format = format
        self.statement = statement
        authenticatorData = try AuthenticatorData(authData)
    }
}
