/// What an ``AppleIDRequest`` is for, as `ASAuthorization.OpenIDOperation`.
///
/// ```swift
/// var request = provider.createRequest()
/// request.requestedOperation = .operationLogin // always ask the person, never reuse a saved session
/// ```
public struct OpenIDOperation: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// AuthenticationServices' raw value.
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// Reuse the saved session's Apple user while its credential is authorized, else sign in (the default).
    public static let operationImplicit = OpenIDOperation(rawValue: "implicit")
    /// Sign in through the browser, even when a saved session could be reused.
    public static let operationLogin = OpenIDOperation(rawValue: "login")

    public var description: String { rawValue }
}
