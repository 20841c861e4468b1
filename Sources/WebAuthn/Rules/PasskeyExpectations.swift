/// What the relying party expects of one ceremony: the challenge it issued, who it is, and its requirements.
package struct PasskeyExpectations: Sendable {
    /// The challenge the server issued for this ceremony.
    package let challenge: [UInt8]
    /// The RP ID (e.g. `example.com`).
    package let relyingPartyID: String
    /// SHA-256 of ``relyingPartyID``: what `rpIdHash` must be.
    package let relyingPartyIDHash: [UInt8]
    /// The origins a ceremony may come from.
    package let origins: Set<String>
    /// The related origins the relying party lists in `/.well-known/webauthn`, accepted too.
    package let relatedOrigins: RelatedOrigins
    package let requirements: PasskeyRequirements
    /// A registration asked for with `mediation: "conditional"` (an automatic upgrade), which the
    /// relying party allowed for this ceremony: UP may be clear (``UserPresenceRule``).
    package var conditionalCreate = false
}
