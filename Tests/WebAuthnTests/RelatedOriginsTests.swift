import Testing

@testable import WebAuthn

/// Related origins (WebAuthn §5.11): a ceremony from a listed one passes ``OriginRule``, any other is
/// refused; the list is what browsers read.
@Suite("Related origins: listed accepted, unlisted refused; at most five https origins")
struct RelatedOriginsTests {
    static let vectors = PasskeyVectors.shared

    @Test("python-fido2's registration from another origin verifies once that origin is a listed related origin, and only then")
    func registrationFromRelatedOrigin() throws {
        let vector = try #require(Self.vectors.registration(named: "wrong-origin"))
        let plain = PasskeyRelyingParty(id: Self.vectors.rpID, origins: Set(Self.vectors.origins), requirements: PasskeyRequirements())
        #expect(throws: PasskeyError(.originMismatch, "")) {
            _ = try plain.verifyRegistration(try vector.response, challenge: bytes(vector.challenge))
        }
        let other = PasskeyRelyingParty(
            id: Self.vectors.rpID, origins: Set(Self.vectors.origins), relatedOrigins: try RelatedOrigins(["https://other.example"]),
            requirements: PasskeyRequirements())
        #expect(throws: PasskeyError(.originMismatch, ""), "another related origin is not this one") {
            _ = try other.verifyRegistration(try vector.response, challenge: bytes(vector.challenge))
        }
        let listed = PasskeyRelyingParty(
            id: Self.vectors.rpID, origins: Set(Self.vectors.origins), relatedOrigins: try RelatedOrigins(["https://evil.juice.test"]),
            requirements: PasskeyRequirements())
        _ = try listed.verifyRegistration(try vector.response, challenge: bytes(vector.challenge))
        let http = try #require(Self.vectors.registration(named: "wrong-origin-http"))
        #expect(throws: PasskeyError(.originMismatch, ""), "http://login.juice.test is no listed origin") {
            _ = try listed.verifyRegistration(try http.response, challenge: bytes(http.challenge))
        }
    }

    @Test("the list: https origins only, lowercased, no path, user, query, IP address or duplicate, at most five")
    func validation() throws {
        #expect(try RelatedOrigins(["https://A.example", "https://b.example:8443"]).origins == ["https://a.example", "https://b.example:8443"])
        #expect(try RelatedOrigins((1...5).map { "https://site\($0).example" }).origins.count == 5)
        for refused in [
            (1...6).map { "https://site\($0).example" }, ["http://a.example"], ["https://a.example/"], ["https://a.example/x"],
            ["https://u@a.example"], ["https://a.example?x"], ["https://a.example#x"], ["https://10.0.0.1"], ["https://localhost"],
            ["https://a.example:0"], ["https://a.example:65536"], ["https://a.example:08"], ["https://a.example", "https://a.example"],
            ["https://a..example"], ["https://-a.example"], ["https://a_b.example"], ["https://"], [""],
        ] {
            #expect(throws: RelatedOrigins.Problem.self, "\(refused)") { try RelatedOrigins(refused) }
        }
        #expect(RelatedOrigins.none.contains("https://a.example") == false)
    }
}
