/// Why a conformance run could not start (exit status 2): the options are unusable, the kit's own Apple
/// could not run (its port is taken), or the backend is unreachable or its start does not lead to the kit.
public struct ConformanceStartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        // The set of codes is closed: a caller matches on the static members and cannot invent one.
        private enum Base: String, Sendable {
            case invalidOptions = "invalid_options"
            case kitUnavailable = "kit_unavailable"
            case backendUnusable = "backend_unusable"
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The stable string of the code.
        public var description: String { base.rawValue }

        /// An option is missing, out of range or contradicts another (also an unreadable team key).
        public static let invalidOptions = Code(.invalidOptions)
        /// The kit could not play Apple: its port is taken, its server stopped, or its keys and store could not be made.
        public static let kitUnavailable = Code(.kitUnavailable)
        /// The backend could not be reached, or its start URL (or native endpoint) does not lead to a sign-in at the kit.
        public static let backendUnusable = Code(.backendUnusable)
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong, for a person; never contains a key or secret.
    public let reason: String

    package init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { reason }
}
