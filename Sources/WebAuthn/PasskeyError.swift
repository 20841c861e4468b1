/// Why a passkey ceremony (registration or authentication) was refused.
///
/// Every refusal carries a stable machine-readable ``code`` and a human ``reason`` that never quotes a
/// key, a signature or a challenge. Two errors are equal when their codes are equal.
///
/// ```swift
/// do { _ = try relyingParty.verifyAuthentication(response, challenge: challenge, credential: stored) }
/// catch let error as PasskeyError where error.code == .counterRegressed { … }
/// ```
package struct PasskeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier for the refusal, e.g. `"challenge_mismatch"`.
    package struct Code: Sendable, Hashable, CustomStringConvertible {
        // The set of codes is closed: a caller matches on the static members and cannot invent one.
        private enum Base: String, Sendable, CaseIterable {
            case malformedCBOR = "malformed_cbor"
            case malformedClientData = "malformed_client_data"
            case malformedAuthenticatorData = "malformed_authenticator_data"
            case malformedPublicKey = "malformed_public_key"
            case wrongCeremony = "wrong_ceremony"
            case challengeMismatch = "challenge_mismatch"
            case challengeUnknown = "challenge_unknown"
            case challengeExpired = "challenge_expired"
            case originMismatch = "origin_mismatch"
            case crossOrigin = "cross_origin"
            case rpIDMismatch = "rp_id_mismatch"
            case userPresenceMissing = "user_presence_missing"
            case userVerificationMissing = "user_verification_missing"
            case backupStateInvalid = "backup_state_invalid"
            case backupEligibilityChanged = "backup_eligibility_changed"
            case counterRegressed = "counter_regressed"
            case unknownCredential = "unknown_credential"
            case credentialExists = "credential_exists"
            case credentialIDMismatch = "credential_id_mismatch"
            case userHandleMismatch = "user_handle_mismatch"
            case unsupportedAlgorithm = "unsupported_algorithm"
            case badSignature = "bad_signature"
            case unsupportedAttestation = "unsupported_attestation"
            case badAttestation = "bad_attestation"
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// Every code (for tests that a mapping misses none).
        static var all: [Code] { Base.allCases.map(Code.init) }

        /// The stable string of the code, e.g. for a log line or an error body.
        package var description: String { base.rawValue }

        /// The attestation object or the COSE key is not CBOR as WebAuthn writes it (``CBORError``).
        package static let malformedCBOR = Code(.malformedCBOR)
        /// `clientDataJSON` is not the JSON object a browser writes.
        package static let malformedClientData = Code(.malformedClientData)
        /// The authenticator data is too short, too long, or its attested credential data is wrong.
        package static let malformedAuthenticatorData = Code(.malformedAuthenticatorData)
        /// The COSE key lacks a field, has one of the wrong type or size, or is not a point on its curve.
        package static let malformedPublicKey = Code(.malformedPublicKey)
        /// `clientDataJSON`'s `type` is not the ceremony's (`webauthn.create` or `webauthn.get`).
        package static let wrongCeremony = Code(.wrongCeremony)
        /// `clientDataJSON`'s `challenge` is not the one the server issued.
        package static let challengeMismatch = Code(.challengeMismatch)
        /// The challenge was never issued, or was already used.
        package static let challengeUnknown = Code(.challengeUnknown)
        /// The challenge was issued but its time is over.
        package static let challengeExpired = Code(.challengeExpired)
        /// `clientDataJSON`'s `origin` is not one the relying party allows.
        package static let originMismatch = Code(.originMismatch)
        /// The ceremony ran in a cross-origin frame (`crossOrigin` true or a `topOrigin`).
        package static let crossOrigin = Code(.crossOrigin)
        /// The authenticator data's `rpIdHash` is not SHA-256 of the relying party's id.
        package static let rpIDMismatch = Code(.rpIDMismatch)
        /// The UP flag is clear: nobody touched the authenticator.
        package static let userPresenceMissing = Code(.userPresenceMissing)
        /// The requirements demand user verification and the UV flag is clear.
        package static let userVerificationMissing = Code(.userVerificationMissing)
        /// The BS (backed up) flag is set while BE (backup eligible) is clear.
        package static let backupStateInvalid = Code(.backupStateInvalid)
        /// The BE flag differs from the one recorded at registration.
        package static let backupEligibilityChanged = Code(.backupEligibilityChanged)
        /// The signature counter is not above the stored one (a cloned authenticator).
        package static let counterRegressed = Code(.counterRegressed)
        /// The credential id names no stored passkey (or one of another account).
        package static let unknownCredential = Code(.unknownCredential)
        /// The credential id is already registered (to this account or another).
        package static let credentialExists = Code(.credentialExists)
        /// The response's credential id differs from the one in the authenticator data.
        package static let credentialIDMismatch = Code(.credentialIDMismatch)
        /// The assertion's user handle is not the one the credential was registered for.
        package static let userHandleMismatch = Code(.userHandleMismatch)
        /// The key's COSE algorithm is not among the requirements' algorithms.
        package static let unsupportedAlgorithm = Code(.unsupportedAlgorithm)
        /// The assertion's signature does not verify with the stored key.
        package static let badSignature = Code(.badSignature)
        /// The attestation format is neither `none` nor `packed`, or the requirements do not accept `packed`.
        package static let unsupportedAttestation = Code(.unsupportedAttestation)
        /// The attestation statement is malformed or its signature or certificate fails a check.
        package static let badAttestation = Code(.badAttestation)
    }

    /// The machine-readable code.
    package let code: Code
    /// A human explanation, safe to log.
    package let reason: String

    package init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    package var description: String { "\(code): \(reason)" }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The refusal of CBOR that ``CBORDecoder`` would not read, in `what` (e.g. "the attestation object").
    static func malformedCBOR(_ error: CBORError, in what: String) -> Self {
        .init(.malformedCBOR, "\(what): \(error.reason)")
    }
}
