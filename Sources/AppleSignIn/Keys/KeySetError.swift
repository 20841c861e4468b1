/// Apple's key set (JWKS) could not be fetched or used.
///
/// An ``AppleKeySource`` of your own throws it with the code that fits; ``AppleKeySet`` keeps serving the
/// last good keys while a refresh fails.
public struct KeySetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        // The set of codes is closed: a caller matches on the static members and cannot invent one.
        private enum Base: String, Sendable {
            case unavailable
            case malformed
            case noUsableKey = "no_usable_key"
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The stable string of the code, e.g. for a log line.
        public var description: String { base.rawValue }

        /// The key endpoint answered something other than 200, or could not be reached.
        public static let unavailable = Code(.unavailable)
        /// The document is not a JSON object with a `keys` array.
        public static let malformed = Code(.malformed)
        /// The document holds no RSA key for RS256 signatures.
        public static let noUsableKey = Code(.noUsableKey)
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong, for humans.
    public let reason: String

    /// Creates an error.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(code): \(reason)" }
}
