import JuiceEncodings

/// Why the ``CredentialStore`` could not read or write. The reason names the file but never its content.
public struct CredentialStoreError: CodedError {
    /// A stable identifier for the failure, e.g. `"no_location"`; the set is closed.
    public typealias Code = ErrorCode<CredentialStoreError>

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

}

extension ErrorCode<CredentialStoreError> {
    /// No location for the store: neither `$JUICE_HOME`, `$XDG_DATA_HOME` nor `$HOME` is usable.
    public static var noLocation: Self { Self("no_location") }
    /// A file exists but is not what the store writes (truncated, edited, another format).
    public static var corrupt: Self { Self("corrupt") }
    /// The file system refused a read or a write.
    public static var io: Self { Self("io") }
}
