import Testing

@_spi(Fuzzing) @testable import WebAuthn

/// The `cbor` fuzz target's ways in: an accepted item comes back byte for byte (the property the
/// target checks), a refused one carries its reason, and the ceremony parsers answer as the relying
/// party's do.
@Suite("WebAuthn fuzzing entry points")
struct WebAuthnFuzzingEntryPointsTests {
    @Test(
        "a canonical item encodes back to its own bytes",
        arguments: [
            [0x00], [0x18, 0x18], [0x39, 0x01, 0x00], [0x1B, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00], [0x43, 1, 2, 3],
            [0x62, 0x68, 0x69], [0x82, 0xF4, 0xF6], [0xA3, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01],
            [0x59, 0x01, 0x00] + [UInt8](repeating: 7, count: 256),
        ] as [[UInt8]])
    func roundTrip(input: [UInt8]) throws {
        #expect(try WebAuthnFuzzingEntryPoints.cborRoundTrip(input).get() == input)
    }

    @Test(
        "a non-canonical item is refused with a reason, not re-encoded",
        arguments: [[0x18, 0x01], [0xA2, 0x03, 0x00, 0x01, 0x00], [0xF9, 0, 0]] as [[UInt8]])
    func refused(input: [UInt8]) {
        guard case .failure(let refusal) = WebAuthnFuzzingEntryPoints.cborRoundTrip(input) else {
            Issue.record("accepted \(input)")
            return
        }
        #expect(!refusal.reason.isEmpty && refusal.code == nil)
    }

    @Test("the attestation object and authenticator data entry points answer as the relying party's parsers")
    func ceremonyParsers() throws {
        let vector = try #require(PasskeyVectors.shared.registration(named: "none-ES256"))
        #expect(try WebAuthnFuzzingEntryPoints.attestationObject(bytes(vector.attestationObject)).get() == bytes(vector.credentialID).count)
        guard case .failure(let refusal) = WebAuthnFuzzingEntryPoints.authenticatorData([0x00]) else {
            Issue.record("one byte of authenticator data was read")
            return
        }
        #expect(refusal.code == "malformed_authenticator_data")
        let assertion = try #require(PasskeyVectors.shared.authentications.first { $0.name == "assert-ES256" })
        #expect(try WebAuthnFuzzingEntryPoints.authenticatorData(bytes(assertion.authenticatorData)).get() == 7)
    }
}
