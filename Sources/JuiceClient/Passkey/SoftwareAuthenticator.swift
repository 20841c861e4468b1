import Crypto
import Foundation
import JuiceEncodings

/// The authenticator behind ``PlatformPublicKeyCredentialProvider`` on Linux: a WebAuthn authenticator in
/// software whose keys live in the ``CredentialStore`` (`passkeys.json`, 0600).
///
/// - Keys: P-256 (ES256, COSE algorithm -7), one per passkey, from the injected ``RandomSource``.
/// - Registration: attestation `none` (format `none`, empty statement), AAGUID all zero, a credential
///   id of 32 random bytes; the authenticator data carries the credential and its COSE key.
/// - Flags: UP and UV (the owner of the 0600 store is the verified user); BE and BS clear: the key is
///   one file on this machine, never synced, so the passkey is device-bound.
/// - Counter: per passkey, 0 at registration, one more per assertion, saved before the signature
///   leaves, so a copied store that signs again shows the relying party a counter that went back.
/// - `clientDataJSON`: `{"type", "challenge", "origin", "crossOrigin": false}`, the challenge as base64url.
struct SoftwareAuthenticator: Sendable {
    let store: CredentialStore
    let random: RandomSource

    /// User present (UP).
    static let userPresent: UInt8 = 0x01
    /// User verified (UV).
    static let userVerified: UInt8 = 0x04
    /// Attested credential data included (AT).
    static let attestedCredentialData: UInt8 = 0x40
    /// The length of a new credential id.
    static let credentialIDLength = 32

    /// Creates a passkey for `request` and keeps it.
    func makeCredential(
        for request: PlatformPublicKeyCredentialRegistrationRequest
    ) async throws(AuthorizationError) -> PlatformPublicKeyCredentialRegistration {
        let rpID = request.relyingPartyIdentifier
        guard !request.challenge.isEmpty else { throw .failed("the registration request has no challenge") }
        guard (1...StoredPasskey.maximumUserIDLength).contains(request.userID.count) else {
            throw .failed("the user handle is \(request.userID.count) bytes; WebAuthn allows 1 to \(StoredPasskey.maximumUserIDLength)")
        }
        let held = Set(try await stored { store in try await store.passkeyCredentialIDs(relyingPartyIdentifier: rpID) })
        if request.excludedCredentials.contains(where: { held.contains($0.credentialID) }) {
            throw .matchedExcludedCredential("this machine already holds a passkey of \(rpID) for this account")
        }
        let key = try newKey()
        let passkey = StoredPasskey(
            relyingPartyIdentifier: rpID, credentialID: Data(random.bytes(Self.credentialIDLength)), userID: request.userID,
            userName: String(request.name.prefix(StoredPasskey.maximumUserNameLength / 4)), privateKey: key.rawRepresentation, signCount: 0)
        guard try await stored({ store in try await store.savePasskey(passkey) }) else {
            throw .failed("the new credential id is one this machine already holds; try again")
        }
        let point = Array(key.publicKey.x963Representation)  // 0x04 ‖ x ‖ y
        let coseKey =
            CBORWriter.mapHead(count: 5) + CBORWriter.integer(1) + CBORWriter.integer(2)  // kty: EC2
            + CBORWriter.integer(3) + CBORWriter.integer(-7)  // alg: ES256
            + CBORWriter.integer(-1) + CBORWriter.integer(1)  // crv: P-256
            + CBORWriter.integer(-2) + CBORWriter.bytes(point[1..<33])
            + CBORWriter.integer(-3) + CBORWriter.bytes(point[33..<65])
        let credentialID = Array(passkey.credentialID)
        let authenticatorData =
            Self.authenticatorData(rpID: rpID, flags: Self.userPresent | Self.userVerified | Self.attestedCredentialData, signCount: 0)
            + [UInt8](repeating: 0, count: 16)  // AAGUID
            + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)] + credentialID + coseKey
        let attestationObject =
            CBORWriter.mapHead(count: 3) + CBORWriter.text("fmt") + CBORWriter.text("none")
            + CBORWriter.text("attStmt") + CBORWriter.mapHead(count: 0)
            + CBORWriter.text("authData") + CBORWriter.bytes(authenticatorData)
        return PlatformPublicKeyCredentialRegistration(
            credentialID: passkey.credentialID,
            rawClientDataJSON: Self.clientDataJSON(type: "webauthn.create", challenge: request.challenge, origin: request.provider.origin),
            rawAttestationObject: Data(attestationObject))
    }

    /// Signs `request`'s challenge with the most recently made allowed passkey of its relying party.
    func getAssertion(
        for request: PlatformPublicKeyCredentialAssertionRequest
    ) async throws(AuthorizationError) -> PlatformPublicKeyCredentialAssertion {
        let rpID = request.relyingPartyIdentifier
        guard !request.challenge.isEmpty else { throw .failed("the assertion request has no challenge") }
        let allowed = Set(request.allowedCredentials.map(\.credentialID))
        let saved = try await stored { store in try await store.passkeys(relyingPartyIdentifier: rpID) }
        guard let chosen = saved.first(where: { allowed.isEmpty || allowed.contains($0.credentialID) }) else {
            throw .notHandled(saved.isEmpty ? "no passkey of \(rpID) is saved" : "none of the saved passkeys of \(rpID) is one the server allows")
        }
        guard
            let passkey = try await stored({ store in
                try await store.countSignature(credentialID: chosen.credentialID, relyingPartyIdentifier: rpID)
            })
        else {
            throw .notHandled("the passkey was removed while it was being used")
        }
        let key: P256.Signing.PrivateKey
        do throws(CredentialStoreError) {
            key = try passkey.signingKey()
        } catch {
            throw .failed("cannot read the saved passkeys: \(error.reason)")
        }
        let clientDataJSON = Self.clientDataJSON(type: "webauthn.get", challenge: request.challenge, origin: request.provider.origin)
        let authenticatorData = Self.authenticatorData(rpID: rpID, flags: Self.userPresent | Self.userVerified, signCount: passkey.signCount)
        let signature: P256.Signing.ECDSASignature
        do {
            // ES256 signs SHA-256(authenticatorData ‖ SHA-256(clientDataJSON)).
            signature = try key.signature(for: authenticatorData + Array(SHA256.hash(data: clientDataJSON)))
        } catch {
            throw .failed("the passkey could not sign")
        }
        return PlatformPublicKeyCredentialAssertion(
            credentialID: passkey.credentialID, rawClientDataJSON: clientDataJSON, rawAuthenticatorData: Data(authenticatorData),
            signature: signature.derRepresentation, userID: passkey.userID)
    }

    /// SHA-256 of the RP ID, the flags and the counter (big-endian): the authenticator data without
    /// attested credential data.
    static func authenticatorData(rpID: String, flags: UInt8, signCount: UInt32) -> [UInt8] {
        Array(SHA256.hash(data: Array(rpID.utf8))) + [flags] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: signCount >> ($0 * 8)) }
    }

    /// The client data (WebAuthn §5.8.1) in the order browsers write it; the origin JSON-escaped.
    static func clientDataJSON(type: String, challenge: Data, origin: String) -> Data {
        Data(
            "{\"type\":\(jsonString(type)),\"challenge\":\"\(Base64URL.encode(challenge))\",\"origin\":\(jsonString(origin)),\"crossOrigin\":false}"
                .utf8)
    }

    private static func jsonString(_ value: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }

    /// A P-256 key whose scalar comes from `random` (a draw of zero or above the group order is drawn again).
    private func newKey() throws(AuthorizationError) -> P256.Signing.PrivateKey {
        for _ in 0..<8 {
            if let key = try? P256.Signing.PrivateKey(rawRepresentation: random.bytes(32)) { return key }
        }
        throw .failed("the random source gave no usable P-256 key in 8 draws")
    }

    /// A store call, its failure as ``AuthorizationError/Code/failed``.
    private func stored<T: Sendable>(_ call: (CredentialStore) async throws -> T) async throws(AuthorizationError) -> T {
        do {
            return try await call(store)
        } catch {
            throw .failed("the saved passkeys: \((error as? CredentialStoreError)?.reason ?? "unreadable")")
        }
    }
}
