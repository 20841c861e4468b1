/// A request an ``AuthorizationController`` can perform, as `ASAuthorizationRequest`: ``AppleIDRequest``,
/// ``PasswordRequest``, ``PlatformPublicKeyCredentialRegistrationRequest`` and
/// ``PlatformPublicKeyCredentialAssertionRequest``.
public protocol AuthorizationRequest: Sendable {
    /// Obtains the credential.
    ///
    /// - Parameter interactive: `false` when the request must answer from saved credentials alone, without
    ///   the person (no browser); `true` when it may ask the person.
    /// - Throws: ``AuthorizationError``; ``AuthorizationError/Code/notHandled`` when the request has nothing
    ///   to offer in this mode, which lets the controller try the next request.
    func perform(interactive: Bool) async throws(AuthorizationError) -> AuthorizationCredential
}
