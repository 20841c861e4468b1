import JuiceEncodings

/// Why a passkey ceremony (registration or authentication) was refused.
///
/// Every refusal carries a stable machine-readable ``code`` and a human ``reason`` that never quotes a
/// key, a signature or a challenge. Two errors are equal when their codes are equal.
///
/// ```swift
/// do { _ = try relyingParty.verifyAuthentication(response, challenge: challenge, credential: stored) }
/// catch let error as PasskeyError where error.code == .counterRegressed { … }
/// ```
package struct PasskeyError: CodedError {
    /// A stable identifier for the refusal, e.g. `"challenge_mismatch"`.
    package typealias Code = ErrorCode<PasskeyError>

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

extension ErrorCode<PasskeyError> {
    /// Every code (for tests that a mapping misses none).
    static var all: [Self] {
        [
            .malformedCBOR, .malformedClientData, .malformedAuthenticatorData, .malformedPublicKey, .wrongCeremony, .challengeMismatch,
            .challengeUnknown, .challengeExpired, .originMismatch, .crossOrigin, .rpIDMismatch, .userPresenceMissing, .userVerificationMissing,
            .backupStateInvalid, .backupEligibilityChanged, .counterRegressed, .unknownCredential, .credentialExists, .credentialIDMismatch,
            .userHandleMismatch, .unsupportedAlgorithm, .badSignature, .unsupportedAttestation, .badAttestation,
        ]
    }
    /// The attestation object or the COSE key is not CBOR as WebAuthn writes it (``CBORError``).
    package static var malformedCBOR: Self { Self("malformed_cbor") }
    /// `clientDataJSON` is not the JSON object a browser writes.
    package static var malformedClientData: Self { Self("malformed_client_data") }
    /// The authenticator data is too short, too long, or its attested credential data is wrong.
    package static var malformedAuthenticatorData: Self { Self("malformed_authenticator_data") }
    /// The COSE key lacks a field, has one of the wrong type or size, or is not a point on its curve.
    package static var malformedPublicKey: Self { Self("malformed_public_key") }
    /// `clientDataJSON`'s `type` is not the ceremony's (`webauthn.create` or `webauthn.get`).
    package static var wrongCeremony: Self { Self("wrong_ceremony") }
    /// `clientDataJSON`'s `challenge` is not the one the server issued.
    package static var challengeMismatch: Self { Self("challenge_mismatch") }
    /// The challenge was never issued, or was already used.
    package static var challengeUnknown: Self { Self("challenge_unknown") }
    /// The challenge was issued but its time is over.
    package static var challengeExpired: Self { Self("challenge_expired") }
    /// `clientDataJSON`'s `origin` is not one the relying party allows.
    package static var originMismatch: Self { Self("origin_mismatch") }
    /// The ceremony ran in a cross-origin frame (`crossOrigin` true or a `topOrigin`).
    package static var crossOrigin: Self { Self("cross_origin") }
    /// The authenticator data's `rpIdHash` is not SHA-256 of the relying party's id.
    package static var rpIDMismatch: Self { Self("rp_id_mismatch") }
    /// The UP flag is clear: nobody touched the authenticator.
    package static var userPresenceMissing: Self { Self("user_presence_missing") }
    /// The requirements demand user verification and the UV flag is clear.
    package static var userVerificationMissing: Self { Self("user_verification_missing") }
    /// The BS (backed up) flag is set while BE (backup eligible) is clear.
    package static var backupStateInvalid: Self { Self("backup_state_invalid") }
    /// The BE flag differs from the one recorded at registration.
    package static var backupEligibilityChanged: Self { Self("backup_eligibility_changed") }
    /// The signature counter is not above the stored one (a cloned authenticator).
    package static var counterRegressed: Self { Self("counter_regressed") }
    /// The credential id names no stored passkey (or one of another account).
    package static var unknownCredential: Self { Self("unknown_credential") }
    /// The credential id is already registered (to this account or another).
    package static var credentialExists: Self { Self("credential_exists") }
    /// The response's credential id differs from the one in the authenticator data.
    package static var credentialIDMismatch: Self { Self("credential_id_mismatch") }
    /// The assertion's user handle is not the one the credential was registered for.
    package static var userHandleMismatch: Self { Self("user_handle_mismatch") }
    /// The key's COSE algorithm is not among the requirements' algorithms.
    package static var unsupportedAlgorithm: Self { Self("unsupported_algorithm") }
    /// The assertion's signature does not verify with the stored key.
    package static var badSignature: Self { Self("bad_signature") }
    /// The attestation format is neither `none` nor `packed`, or the requirements do not accept `packed`.
    package static var unsupportedAttestation: Self { Self("unsupported_attestation") }
    /// The attestation statement is malformed or its signature or certificate fails a check.
    package static var badAttestation: Self { Self("bad_attestation") }
}
