/// Whether a passkey ceremony should verify the person, as
/// `ASAuthorizationPublicKeyCredentialUserVerificationPreference` (WebAuthn's `userVerification`).
///
/// ``SoftwareAuthenticator`` always reports the person verified (the UV flag): it counts the
/// operating-system account that owns the 0600 credential store as the verified user, as a platform
/// authenticator counts the device passcode, so every preference is met.
public struct PublicKeyCredentialUserVerificationPreference: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// WebAuthn's value: `required`, `preferred` or `discouraged`.
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// The ceremony fails unless the person is verified.
    public static let required = Self(rawValue: "required")
    /// Verify the person when the authenticator can.
    public static let preferred = Self(rawValue: "preferred")
    /// Do not verify the person.
    public static let discouraged = Self(rawValue: "discouraged")

    public var description: String { rawValue }
}
