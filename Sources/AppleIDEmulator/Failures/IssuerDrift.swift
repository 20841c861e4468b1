/// `issuer_drift`: discovery names `https://account.apple.com`, as Apple's did from June 2025, while the
/// tokens keep the emulator's issuer. A backend that takes the issuer to expect from discovery then refuses
/// every valid token; one that pins Apple's issuer is not affected.
package struct IssuerDrift: Sendable {
    /// The issuer Apple's discovery document has named since June 2025.
    package static let driftedIssuer = "https://account.apple.com"

    let failures: FailureInjection

    /// The issuer discovery names now: the drifted one while an `issuer_drift` failure applies (each
    /// discovery request counts one), else `issuer`.
    func issuer(otherwise issuer: String) -> String {
        failures.take([.issuerDrift], clientID: nil) == nil ? issuer : Self.driftedIssuer
    }
}
