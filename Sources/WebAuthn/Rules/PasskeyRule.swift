/// One rule a passkey ceremony must satisfy; each refusal is a precise ``PasskeyError``.
///
/// The two ceremonies are ordered lists of rules (``PasskeyRelyingParty/registrationRules`` and
/// ``PasskeyRelyingParty/authenticationRules``), as the identity-token checks are a list of `TokenRule`s.
/// A rule that applies to both ceremonies is generic over the evidence; one that applies to one names its
/// evidence type.
package protocol PasskeyRule<Evidence>: Sendable {
    associatedtype Evidence: CeremonyEvidence
    func check(_ evidence: Evidence, against expected: PasskeyExpectations) throws(PasskeyError)
}

extension Array {
    /// Runs every rule in order; the first refusal is thrown.
    func check<Evidence>(_ evidence: Evidence, against expected: PasskeyExpectations) throws(PasskeyError)
    where Element == any PasskeyRule<Evidence> {
        for rule in self { try rule.check(evidence, against: expected) }
    }
}
