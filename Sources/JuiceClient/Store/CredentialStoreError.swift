/// Why the ``CredentialStore`` could not read or write. The reason names the file but never its content.
public struct CredentialStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier for the failure, e.g. `"no_location"`; the set is closed.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case noLocation = "no_location"
            case corrupt = "corrupt"
            case io = "io"
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The code's stable string, e.g. for a log line or an error body.
        public var description: String { base.rawValue }

        /// No location for the store: neither `$JUICE_HOME`, `$XDG_DATA_HOME` nor `$HOME` is usable.
        public static let noLocation = Code(.noLocation)

        /// A file exists but is not what the store writes (truncated, edited, another format).
        public static let corrupt = Code(.corrupt)

        /// The file system refused a read or a write.
        public static let io = Code(.io)
    }

    /// What went wrong.
    public let code: Code
    /// A human-readable explanation, with the path involved.
    public let reason: String

    /// An error with `code` and `reason`.
    init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// ``Code/noLocation``.
    static func noLocation(_ reason: String) -> Self { Self(.noLocation, reason) }
    /// ``Code/corrupt``.
    static func corrupt(_ reason: String) -> Self { Self(.corrupt, reason) }
    /// ``Code/io``.
    static func io(_ reason: String) -> Self { Self(.io, reason) }

    public var description: String { "\(code): \(reason)" }

    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
