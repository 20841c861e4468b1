/// Why the ``CredentialStore`` could not read or write. The reason names the file but never its content.
public struct CredentialStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Code: String, Sendable, Hashable {
        /// No location for the store: neither `$JUICE_HOME`, `$XDG_DATA_HOME` nor `$HOME` is usable.
        case noLocation = "no_location"
        /// A file exists but is not what the store writes (truncated, edited, another format).
        case corrupt
        /// The file system refused a read or a write.
        case io
    }

    /// What went wrong.
    public let code: Code
    /// A human-readable explanation, with the path involved.
    public let reason: String

    /// An error with `code` and `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// ``Code/noLocation``.
    public static func noLocation(_ reason: String) -> Self { Self(.noLocation, reason) }
    /// ``Code/corrupt``.
    public static func corrupt(_ reason: String) -> Self { Self(.corrupt, reason) }
    /// ``Code/io``.
    public static func io(_ reason: String) -> Self { Self(.io, reason) }

    public var description: String { "\(code.rawValue): \(reason)" }

    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
