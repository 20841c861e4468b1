import AppleIDEmulator

/// One of Apple's failures, in the emulator's vocabulary (`AppleIDEmulator/Failures`), put in force for
/// the judged sign-in and cleared after the case.
struct AppleFailure: Sendable {
    let kind: FailureKind
    /// Whether it applies to the case's client id only (else to every request).
    var perClient = false
    /// Requests it applies to; `nil`: until the case ends.
    var count: Int?
    /// The 5xx of `token_server_error` and `keys_server_error`.
    var status: Int?
    /// The domain of `relay_domain`.
    var relayDomain: RelayDomain?
}
