/// Every code the server answers with, in one closed set: nobody outside this file can make one up,
/// and an error of another module becomes one through a table written out (``PasskeyError`` and
/// ``TokenVerificationError``), never through its string.
extension ServerError {
    struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case invalidRequest = "invalid_request"
            case unauthorized = "unauthorized"
            case invalidCSRFToken = "invalid_csrf_token"
            case invalidState = "invalid_state"
            case invalidIdentityToken = "invalid_identity_token"
            case invalidCode = "invalid_code"
            case appleError = "apple_error"
            case appleUnavailable = "apple_unavailable"
            case invalidCredentials = "invalid_credentials"
            case usernameTaken = "username_taken"
            case invalidPassword = "invalid_password"
            case passwordInvalidCharacters = "password_invalid_characters"
            case passwordTooLong = "password_too_long"
            case invalidText = "invalid_text"
            case textTooLong = "text_too_long"
            case rateLimited = "rate_limited"
            case appleIDInUse = "apple_id_in_use"
            case notFound = "not_found"
            case internalError = "internal_error"
            case invalidRedirectURI = "invalid_redirect_uri"
            case invalidNonce = "invalid_nonce"
            case unsupportedMediaType = "unsupported_media_type"
            case payloadTooLarge = "payload_too_large"
            case invalidNotification = "invalid_notification"
            case weakPassword = "weak_password"
            case invalidUsername = "invalid_username"
            case reauthenticationRequired = "reauthentication_required"
            case browserMismatch = "browser_mismatch"
            case serverBusy = "server_busy"
            case lastSignInMethod = "last_sign_in_method"
            case methodNotAllowed = "method_not_allowed"
            case upgradeNotAllowed = "upgrade_not_allowed"
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
            case malformedToken = "malformed"
            case unknownKey = "unknown_key"
            case wrongIssuer = "wrong_issuer"
            case wrongAudience = "wrong_audience"
            case expired = "expired"
            case notYetValid = "not_yet_valid"
            case nonceMismatch = "nonce_mismatch"
            case missingNonce = "missing_nonce"
            case codeHashMismatch = "code_hash_mismatch"
            case keysUnavailable = "keys_unavailable"
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The code as the JSON body's `error` carries it.
        var rawValue: String { base.rawValue }
        var description: String { base.rawValue }

        /// The request is malformed.
        static let invalidRequest = Code(.invalidRequest)
        /// No valid session or bearer token.
        static let unauthorized = Code(.unauthorized)
        /// The form's CSRF token is missing or wrong.
        static let invalidCSRFToken = Code(.invalidCSRFToken)
        /// The sign-in `state` is unknown, expired or already used.
        static let invalidState = Code(.invalidState)
        /// The identity token failed verification.
        static let invalidIdentityToken = Code(.invalidIdentityToken)
        /// The authorization code was already used, or Apple refused it.
        static let invalidCode = Code(.invalidCode)
        /// Apple answered the sign-in with an error.
        static let appleError = Code(.appleError)
        /// Apple could not be reached.
        static let appleUnavailable = Code(.appleUnavailable)
        /// Wrong username or password (deliberately the same for both).
        static let invalidCredentials = Code(.invalidCredentials)
        /// The username is taken.
        static let usernameTaken = Code(.usernameTaken)
        /// The password does not meet the length rules.
        static let invalidPassword = Code(.invalidPassword)
        /// A new password holds a control character (NUL, tab, a line break…).
        static let passwordInvalidCharacters = Code(.passwordInvalidCharacters)
        /// A new password is longer than the 72 UTF-8 bytes bcrypt reads.
        static let passwordTooLong = Code(.passwordTooLong)
        /// Stored text (a passkey's name) holds a control character: C0 (NUL, tab, a line break…), DEL or C1.
        static let invalidText = Code(.invalidText)
        /// Stored text is longer than its limit in Unicode scalars or UTF-8 bytes.
        static let textTooLong = Code(.textTooLong)
        /// Too many attempts; try later.
        static let rateLimited = Code(.rateLimited)
        /// The Apple ID is already linked to another account.
        static let appleIDInUse = Code(.appleIDInUse)
        /// No such page or resource.
        static let notFound = Code(.notFound)
        /// Something failed inside the server.
        static let internalError = Code(.internalError)
        /// The loopback bridge's `redirect_uri` is not a loopback `http` URI with a port.
        static let invalidRedirectURI = Code(.invalidRedirectURI)
        /// The native sign-in's nonce is unknown, expired or already used.
        static let invalidNonce = Code(.invalidNonce)
        /// The request body is not `application/json`.
        static let unsupportedMediaType = Code(.unsupportedMediaType)
        /// The request body is larger than the server accepts.
        static let payloadTooLarge = Code(.payloadTooLarge)
        /// A server-to-server notification failed verification.
        static let invalidNotification = Code(.invalidNotification)
        /// The new password is too easy to guess (a common password, contains the username, repetitive, sequential, or unchanged); the reason says which.
        static let weakPassword = Code(.weakPassword)
        /// The username breaks a rule (length, spaces, invisible or direction-changing characters); the reason says which.
        static let invalidUsername = Code(.invalidUsername)
        /// The change needs a fresh sign-in (within the last minutes).
        static let reauthenticationRequired = Code(.reauthenticationRequired)
        /// A web sign-in is finished in a browser (or session) other than the one that started it.
        static let browserMismatch = Code(.browserMismatch)
        /// Every slot for password hashing is taken and its queue is full; try again shortly.
        static let serverBusy = Code(.serverBusy)
        /// The passkey to remove is the account's last way to sign in (no password, no Apple ID, no other passkey).
        static let lastSignInMethod = Code(.lastSignInMethod)
        /// The path exists but does not answer this method (the answer's `Allow` lists those it does).
        static let methodNotAllowed = Code(.methodNotAllowed)
        /// An automatic passkey upgrade (conditional create) outside a session that signed in with a password in the last minutes.
        static let upgradeNotAllowed = Code(.upgradeNotAllowed)

        // MARK: Passkey refusals (`PasskeyError`'s codes, PasskeyError+HTTPResponseError.swift)

        /// `malformed_cbor`: the WebAuthn refusal of the same name.
        static let malformedCBOR = Code(.malformedCBOR)
        /// `malformed_client_data`: the WebAuthn refusal of the same name.
        static let malformedClientData = Code(.malformedClientData)
        /// `malformed_authenticator_data`: the WebAuthn refusal of the same name.
        static let malformedAuthenticatorData = Code(.malformedAuthenticatorData)
        /// `malformed_public_key`: the WebAuthn refusal of the same name.
        static let malformedPublicKey = Code(.malformedPublicKey)
        /// `wrong_ceremony`: the WebAuthn refusal of the same name.
        static let wrongCeremony = Code(.wrongCeremony)
        /// `challenge_mismatch`: the WebAuthn refusal of the same name.
        static let challengeMismatch = Code(.challengeMismatch)
        /// `challenge_unknown`: the WebAuthn refusal of the same name.
        static let challengeUnknown = Code(.challengeUnknown)
        /// `challenge_expired`: the WebAuthn refusal of the same name.
        static let challengeExpired = Code(.challengeExpired)
        /// `origin_mismatch`: the WebAuthn refusal of the same name.
        static let originMismatch = Code(.originMismatch)
        /// `cross_origin`: the WebAuthn refusal of the same name.
        static let crossOrigin = Code(.crossOrigin)
        /// `rp_id_mismatch`: the WebAuthn refusal of the same name.
        static let rpIDMismatch = Code(.rpIDMismatch)
        /// `user_presence_missing`: the WebAuthn refusal of the same name.
        static let userPresenceMissing = Code(.userPresenceMissing)
        /// `user_verification_missing`: the WebAuthn refusal of the same name.
        static let userVerificationMissing = Code(.userVerificationMissing)
        /// `backup_state_invalid`: the WebAuthn refusal of the same name.
        static let backupStateInvalid = Code(.backupStateInvalid)
        /// `backup_eligibility_changed`: the WebAuthn refusal of the same name.
        static let backupEligibilityChanged = Code(.backupEligibilityChanged)
        /// `counter_regressed`: the WebAuthn refusal of the same name.
        static let counterRegressed = Code(.counterRegressed)
        /// `unknown_credential`: the WebAuthn refusal of the same name.
        static let unknownCredential = Code(.unknownCredential)
        /// `credential_exists`: the WebAuthn refusal of the same name.
        static let credentialExists = Code(.credentialExists)
        /// `credential_id_mismatch`: the WebAuthn refusal of the same name.
        static let credentialIDMismatch = Code(.credentialIDMismatch)
        /// `user_handle_mismatch`: the WebAuthn refusal of the same name.
        static let userHandleMismatch = Code(.userHandleMismatch)
        /// `unsupported_algorithm`: the WebAuthn refusal of the same name.
        static let unsupportedAlgorithm = Code(.unsupportedAlgorithm)
        /// `bad_signature`: the WebAuthn refusal of the same name.
        static let badSignature = Code(.badSignature)
        /// `unsupported_attestation`: the WebAuthn refusal of the same name.
        static let unsupportedAttestation = Code(.unsupportedAttestation)
        /// `bad_attestation`: the WebAuthn refusal of the same name.
        static let badAttestation = Code(.badAttestation)

        // MARK: Notification refusals (`TokenVerificationError`'s codes, NotificationController.swift)

        /// `malformed`: the notification JWT's refusal of the same name.
        static let malformedToken = Code(.malformedToken)
        /// `unknown_key`: the notification JWT's refusal of the same name.
        static let unknownKey = Code(.unknownKey)
        /// `wrong_issuer`: the notification JWT's refusal of the same name.
        static let wrongIssuer = Code(.wrongIssuer)
        /// `wrong_audience`: the notification JWT's refusal of the same name.
        static let wrongAudience = Code(.wrongAudience)
        /// `expired`: the notification JWT's refusal of the same name.
        static let expired = Code(.expired)
        /// `not_yet_valid`: the notification JWT's refusal of the same name.
        static let notYetValid = Code(.notYetValid)
        /// `nonce_mismatch`: the notification JWT's refusal of the same name.
        static let nonceMismatch = Code(.nonceMismatch)
        /// `missing_nonce`: the notification JWT's refusal of the same name.
        static let missingNonce = Code(.missingNonce)
        /// `code_hash_mismatch`: the notification JWT's refusal of the same name.
        static let codeHashMismatch = Code(.codeHashMismatch)
        /// `keys_unavailable`: the notification JWT's refusal of the same name.
        static let keysUnavailable = Code(.keysUnavailable)
    }
}
