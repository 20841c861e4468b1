import Testing

@testable import WebAuthn

/// A conditional create (an automatic upgrade) may come back without user presence (WebAuthn §7.1
/// step 14); ``UserPresenceRule`` lets UP be clear only when the relying party says the registration is one.
@Suite("Conditional create: a registration without UP only when the relying party allows it")
struct ConditionalCreateTests {
    static let vectors = PasskeyVectors.shared

    @Test("a registration without UP (python-fido2) is accepted only as a conditional create; an ordinary one is refused")
    func conditionalCreate() throws {
        let vector = try #require(Self.vectors.registration(named: "up-cleared"))
        let party = PasskeyRelyingParty(id: Self.vectors.rpID, origins: Set(Self.vectors.origins), requirements: PasskeyRequirements())
        #expect(throws: PasskeyError(.userPresenceMissing, "")) {
            _ = try party.verifyRegistration(try vector.response, challenge: bytes(vector.challenge))
        }
        let verified = try party.verifyRegistration(try vector.response, challenge: bytes(vector.challenge), conditional: true)
        #expect(!verified.userPresent)
    }
}
