import JuiceEncodings

/// Why a conformance run could not start (exit status 2): the options are unusable, the kit's own Apple
/// could not run (its port is taken), or the backend is unreachable or its start does not lead to the kit.
public struct ConformanceStartError: CodedError {
    /// What kind of failure.
    public typealias Code = ErrorCode<ConformanceStartError>

    /// The kind of failure.
    public let code: Code
    /// What went wrong, for a person; never contains a key or secret.
    public let reason: String

    package init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

}

extension ErrorCode<ConformanceStartError> {
    /// An option is missing, out of range or contradicts another (also an unreadable team key).
    public static var invalidOptions: Self { Self("invalid_options") }
    /// The kit could not play Apple: its port is taken, its server stopped, or its keys and store could not be made.
    public static var kitUnavailable: Self { Self("kit_unavailable") }
    /// The backend could not be reached, or its start URL (or native endpoint) does not lead to a sign-in at the kit.
    public static var backendUnusable: Self { Self("backend_unusable") }
}
