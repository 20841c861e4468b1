/// `clientDataJSON`'s `origin` must be one the relying party allows: its site, an app's associated
/// domain, or a related origin it lists in `/.well-known/webauthn` (``RelatedOrigins``, WebAuthn §5.11);
/// any other, a listed site's subdomain included, is refused.
struct OriginRule<Evidence: CeremonyEvidence>: PasskeyRule {
    func check(_ evidence: Evidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        let origin = evidence.clientData.origin
        guard expected.origins.contains(origin) || expected.relatedOrigins.contains(origin) else {
            throw PasskeyError(.originMismatch, "origin \"\(origin.prefix(100))\" is neither this site's nor a listed related origin")
        }
    }
}
