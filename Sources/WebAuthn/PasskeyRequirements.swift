/// The relying party's settings for passkeys: what it demands beyond the rules every ceremony applies
/// (`PasskeyRule`), and what it asks browsers for in the creation and request options.
package struct PasskeyRequirements: Sendable, Equatable {
    /// Whether the UV flag must be set.
    package enum UserVerification: String, Sendable, Equatable, Codable {
        /// Refuse a ceremony without user verification.
        case required
        /// Ask for it; accept a ceremony without it.
        case preferred
        /// Do not ask for it; accept either.
        case discouraged
    }

    /// User verification at registration and authentication.
    package var userVerification: UserVerification
    /// The key algorithms accepted, in the server's order of preference.
    package var algorithms: [COSEAlgorithm]
    /// Whether a `packed` attestation (self or x5c) is accepted besides `none`.
    package var acceptsPackedAttestation: Bool

    package init(
        userVerification: UserVerification = .preferred,
        algorithms: [COSEAlgorithm] = [.es256, .edDSA, .rs256],
        acceptsPackedAttestation: Bool = true
    ) {
        self.userVerification = userVerification
        self.algorithms = algorithms
        self.acceptsPackedAttestation = acceptsPackedAttestation
    }
}
