import JuiceEncodings
import Testing

@testable import WebAuthn

/// Registration and assertion responses made by python-fido2 and `cryptography`
/// (`Fixtures/make_vectors.py`): the good ones verify, each hostile one is refused with its own code.
@Suite("WebAuthn ceremonies against independent vectors")
struct PasskeyVectorTests {
    static let vectors = PasskeyVectors.shared

    @Test(
        "a good registration verifies and yields the key, counter, flags and attestation",
        arguments: vectors.registrations.filter { $0.expect == "ok" })
    func goodRegistration(vector: PasskeyVectors.Registration) throws {
        let party = Self.vectors.relyingParty(requirements: vector.requirements)
        let result = try party.verifyRegistration(try vector.response, challenge: bytes(vector.challenge))
        #expect(result.credentialID == bytes(vector.credentialID))
        #expect(result.algorithm.name == vector.algorithm)
        #expect(try COSEKey(encoded: result.publicKey).algorithm == result.algorithm)
        #expect(result.signCount == 0)
        switch vector.name {
        case _ where vector.name.hasPrefix("packed-self"): #expect(result.attestationType == .self)
        case _ where vector.name.hasPrefix("packed-x5c"): #expect(result.attestationType == .basic)
        default: #expect(result.attestationType == .none)
        }
        #expect(result.backupEligible == vector.name.contains("synced"))
        #expect(result.backedUp == vector.name.contains("synced"))
        #expect(result.userVerified == !vector.name.contains("no-uv"))
    }

    @Test("a hostile registration is refused with its specific code", arguments: vectors.registrations.filter { $0.expect != "ok" })
    func hostileRegistration(vector: PasskeyVectors.Registration) {
        let party = Self.vectors.relyingParty(requirements: vector.requirements)
        #expect {
            _ = try party.verifyRegistration(try vector.response, challenge: bytes(vector.challenge))
        } throws: { error in
            (error as? PasskeyError)?.code.description == vector.expect
        }
    }

    @Test("an assertion is accepted or refused as its vector says", arguments: vectors.authentications)
    func assertion(vector: PasskeyVectors.Authentication) throws {
        let registration = try #require(Self.vectors.registration(named: vector.registration))
        let registered = try Self.vectors.relyingParty(requirements: "default")
            .verifyRegistration(try registration.response, challenge: bytes(registration.challenge))
        let stored = RegisteredPasskey(
            credentialID: registered.credentialID, userHandle: bytes(vector.storedUserHandle), publicKey: registered.publicKey,
            signCount: vector.storedSignCount, backupEligible: registered.backupEligible)
        let party = Self.vectors.relyingParty(requirements: vector.requirements)
        if vector.expect == "ok" {
            let result = try party.verifyAuthentication(try vector.response, challenge: bytes(vector.challenge), credential: stored)
            #expect(result.signCount == AuthenticatorDataPeek.signCount(bytes(vector.authenticatorData)))
        } else {
            #expect {
                _ = try party.verifyAuthentication(try vector.response, challenge: bytes(vector.challenge), credential: stored)
            } throws: { error in
                (error as? PasskeyError)?.code.description == vector.expect
            }
        }
    }

    @Test("a good assertion is refused once the requirements drop its algorithm")
    func algorithmAllowList() throws {
        let vector = try #require(Self.vectors.authentications.first { $0.name == "assert-EdDSA" })
        let registration = try #require(Self.vectors.registration(named: vector.registration))
        let registered = try Self.vectors.relyingParty(requirements: "default")
            .verifyRegistration(try registration.response, challenge: bytes(registration.challenge))
        let stored = RegisteredPasskey(
            credentialID: registered.credentialID, userHandle: bytes(vector.storedUserHandle), publicKey: registered.publicKey,
            signCount: vector.storedSignCount, backupEligible: false)
        let strict = PasskeyRelyingParty(
            id: Self.vectors.rpID, origins: Set(Self.vectors.origins), requirements: PasskeyRequirements(algorithms: [.es256]))
        #expect(throws: PasskeyError(.unsupportedAlgorithm, "")) {
            _ = try strict.verifyAuthentication(try vector.response, challenge: bytes(vector.challenge), credential: stored)
        }
        #expect(throws: PasskeyError(.unsupportedAlgorithm, "")) {
            _ = try strict.verifyRegistration(try registration.response, challenge: bytes(registration.challenge))
        }
    }

    @Test("packed attestation is refused when the requirements accept none only")
    func packedRefusedByPolicy() throws {
        let vector = try #require(Self.vectors.registration(named: "packed-x5c-ES256"))
        let party = PasskeyRelyingParty(
            id: Self.vectors.rpID, origins: Set(Self.vectors.origins), requirements: PasskeyRequirements(acceptsPackedAttestation: false))
        #expect(throws: PasskeyError(.unsupportedAttestation, "")) {
            _ = try party.verifyRegistration(try vector.response, challenge: bytes(vector.challenge))
        }
    }

    @Test("an empty expected challenge matches nothing, not even an empty one in the client data")
    func emptyChallenge() throws {
        let vector = try #require(Self.vectors.registration(named: "none-ES256"))
        #expect(throws: PasskeyError(.challengeMismatch, "")) {
            _ = try Self.vectors.relyingParty(requirements: "default").verifyRegistration(try vector.response, challenge: [])
        }
    }

    @Test("a registration for another RP ID than the relying party's is refused even with every other field right")
    func otherRelyingParty() throws {
        let vector = try #require(Self.vectors.registration(named: "none-ES256"))
        let party = PasskeyRelyingParty(id: "juice.test", origins: Set(Self.vectors.origins), requirements: PasskeyRequirements())
        #expect(throws: PasskeyError(.rpIDMismatch, "")) {
            _ = try party.verifyRegistration(try vector.response, challenge: bytes(vector.challenge))
        }
    }
}

/// The counter of an authenticator data, read here by hand so that the test does not check the
/// parser with itself.
enum AuthenticatorDataPeek {
    static func signCount(_ data: [UInt8]) -> UInt32 {
        data.count >= 37 ? data[33..<37].reduce(0) { $0 << 8 | UInt32($1) } : 0
    }
}
