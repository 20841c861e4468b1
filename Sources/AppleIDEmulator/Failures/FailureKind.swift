/// Every failure or drift the fixture API can inject (`POST /emulator/admin/failures {"kind": …}`).
/// The set is closed: the admin API refuses any other name with 400 `invalid_request`.
package enum FailureKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// `/auth/token` answers a 5xx (`status`, 503 by default) with `server_error`.
    case tokenServerError = "token_server_error"
    /// `/auth/token` answers 400 `invalid_grant`, whatever the request.
    case tokenInvalidGrant = "token_invalid_grant"
    /// `/auth/token` answers 401 `invalid_client`, whatever the request.
    case tokenInvalidClient = "token_invalid_client"
    /// `/auth/token` answers 200 with a body that is not JSON (cut off mid-object).
    case tokenMalformedJSON = "token_malformed_json"
    /// `/auth/token` answers as usual, after `delay_seconds`.
    case tokenDelay = "token_delay"
    /// `/auth/keys` answers a 5xx (`status`, 503 by default).
    case keysServerError = "keys_server_error"
    /// `/auth/keys` answers as usual, after `delay_seconds`.
    case keysDelay = "keys_delay"
    /// Rotates the signing key at once (as `POST /emulator/admin/rotate-keys` does); nothing is kept.
    case rotateSigningKey = "rotate_signing_key"
    /// Discovery names the issuer `https://account.apple.com` (Apple's change of June 2025); tokens keep theirs.
    case issuerDrift = "issuer_drift"
    /// Identity tokens carry no `email`, `email_verified` or `is_private_email`.
    case omitEmail = "omit_email"
    /// Notifications to the app (`client_id`: its bundle id) are dropped: never sent, logged as dropped.
    case dropNotifications = "drop_notifications"
    /// New relay addresses are issued on `relay_domain` instead of the configured domain.
    case relayDomain = "relay_domain"

    /// The kinds that answer or delay `/auth/token`.
    static let tokenEndpoint: Set<FailureKind> = [.tokenServerError, .tokenInvalidGrant, .tokenInvalidClient, .tokenMalformedJSON, .tokenDelay]
    /// The kinds that answer or delay `/auth/keys`.
    static let keyEndpoint: Set<FailureKind> = [.keysServerError, .keysDelay]

    /// Whether a failure of this kind may name a client id (requests to keys and discovery carry none).
    var appliesPerClient: Bool {
        switch self {
        case .keysServerError, .keysDelay, .rotateSigningKey, .issuerDrift: false
        default: true
        }
    }

    /// Whether `count` applies: a key rotation happens once, and a relay domain lasts until cleared.
    var isCounted: Bool {
        switch self {
        case .rotateSigningKey, .relayDomain: false
        default: true
        }
    }

    /// Whether the failure needs `delay_seconds`.
    var isDelay: Bool { self == .tokenDelay || self == .keysDelay }

    /// Whether the failure answers a 5xx status (`status`).
    var isServerError: Bool { self == .tokenServerError || self == .keysServerError }
}
