/// A stable identifier for one kind of failure, e.g. `"lifetime_too_long"`, from a closed set: its
/// initializer is `package`, so outside this package the codes an error type declares (static members
/// of `ErrorCode<ThatError>`) are all there are, and a caller matches on them but cannot invent one.
///
/// ```swift
/// public struct ClientSecretError: CodedError {
///     public typealias Code = ErrorCode<ClientSecretError>
///     public let code: Code
///     public let reason: String
/// }
///
/// extension ErrorCode<ClientSecretError> {
///     /// The lifetime asked for is over Apple's six months.
///     public static var lifetimeTooLong: Self { Self("lifetime_too_long") }
/// }
/// ```
public struct ErrorCode<Domain>: Sendable, Hashable, CustomStringConvertible {
    /// The code's stable string, e.g. for a log line or an error body.
    public let description: String

    /// A code of this domain (only the package's own modules declare codes).
    package init(_ text: String) {
        self.description = text
    }

    /// The same code as another domain's: an answer that carries a lower layer's refusal as it is (the
    /// server's JSON `error` for a passkey refusal is the passkey code itself).
    package init<Other>(_ other: ErrorCode<Other>) {
        self.description = other.description
    }
}

/// An error made of a closed ``ErrorCode`` and a reason for people (never a secret): two errors are
/// equal when their codes are, and it describes itself by its reason unless it says otherwise.
public protocol CodedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a stable code.
    var code: ErrorCode<Self> { get }
    /// What went wrong, for a person.
    var reason: String { get }
}

extension CodedError {
    public var description: String { reason }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
