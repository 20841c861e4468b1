import Foundation

/// Why an authorization failed, as `ASAuthorizationError`: a ``Code`` with AuthenticationServices' raw
/// values and a reason for humans that never contains a token, code, nonce or password.
///
/// ```swift
/// do {
///     let authorization = try await controller.performRequests()
/// } catch let error where error.code == .canceled {
///     print("Sign-in cancelled.")
/// }
/// ```
public struct AuthorizationError: Error, Sendable, Hashable, CustomStringConvertible, CustomNSError {
    /// The kinds of failure, with `ASAuthorizationError.Code`'s raw values.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// The authorization failed for an unknown reason.
        case unknown = 1000
        /// The person cancelled, or nobody answered before the timeout.
        case canceled = 1001
        /// The response could not be used: a state mismatch, a missing or malformed field.
        case invalidResponse = 1002
        /// No request could be handled (for example no saved password and no interactive request).
        case notHandled = 1003
        /// The authorization could not run: no loopback listener, an error from the bridge or Apple.
        case failed = 1004
        /// Handling the request needs the person, but only immediately available credentials were allowed.
        case notInteractive = 1005
        /// A passkey registration named, among the credentials to exclude, one this machine holds.
        case matchedExcludedCredential = 1006
    }

    /// What went wrong.
    public let code: Code
    /// A human-readable explanation, free of secrets.
    public let reason: String

    /// An error with `code` and `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// ``Code/unknown``.
    public static func unknown(_ reason: String) -> Self { Self(.unknown, reason) }
    /// ``Code/canceled``.
    public static func canceled(_ reason: String) -> Self { Self(.canceled, reason) }
    /// ``Code/invalidResponse``.
    public static func invalidResponse(_ reason: String) -> Self { Self(.invalidResponse, reason) }
    /// ``Code/notHandled``.
    public static func notHandled(_ reason: String) -> Self { Self(.notHandled, reason) }
    /// ``Code/failed``.
    public static func failed(_ reason: String) -> Self { Self(.failed, reason) }
    /// ``Code/notInteractive``.
    public static func notInteractive(_ reason: String) -> Self { Self(.notInteractive, reason) }
    /// ``Code/matchedExcludedCredential``.
    public static func matchedExcludedCredential(_ reason: String) -> Self { Self(.matchedExcludedCredential, reason) }

    /// AuthenticationServices' error domain.
    public static let errorDomain = "com.apple.AuthenticationServices.AuthorizationError"
    /// The code's raw value (1000–1006).
    public var errorCode: Int { code.rawValue }
    /// The reason as `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: reason] }

    public var description: String { "\(code) (\(code.rawValue)): \(reason)" }

    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
