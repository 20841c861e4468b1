/// The result of a successful ``AuthorizationController/performRequests(options:)``, as `ASAuthorization`.
///
/// ```swift
/// switch try await controller.performRequests().credential {
/// case .appleID(let credential): try await createAccount(credential)
/// case .password(let credential): try await signIn(credential.user, credential.password)
/// case .publicKeyCredentialAssertion(let assertion): try await api.signInWithPasskey(assertion)
/// case .publicKeyCredentialRegistration(let registration): try await addPasskey(registration)
/// }
/// ```
public struct Authorization: Sendable, Hashable {
    /// The credential obtained.
    public let credential: AuthorizationCredential

    /// An authorization carrying `credential`.
    public init(credential: AuthorizationCredential) {
        self.credential = credential
    }
}

/// The credential in an ``Authorization``: AuthenticationServices' credential classes as cases.
public enum AuthorizationCredential: Sendable, Hashable {
    /// An Apple ID credential (``AppleIDRequest``).
    case appleID(AppleIDCredential)
    /// A saved password (``PasswordRequest``).
    case password(PasswordCredential)
    /// A new passkey (``PlatformPublicKeyCredentialRegistrationRequest``).
    case publicKeyCredentialRegistration(PlatformPublicKeyCredentialRegistration)
    /// A saved passkey's signature (``PlatformPublicKeyCredentialAssertionRequest``).
    case publicKeyCredentialAssertion(PlatformPublicKeyCredentialAssertion)
}
