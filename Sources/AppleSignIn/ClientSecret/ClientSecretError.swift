/// A client secret that cannot be made as asked: a ``Code`` and a reason.
public struct ClientSecretError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier for the problem, e.g. `"lifetime_too_long"`; the set is closed.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case lifetimeTooLong = "lifetime_too_long"
            case lifetimeTooShort = "lifetime_too_short"
            case signingFailed = "signing_failed"
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The code's stable string, e.g. for a log line or an error body.
        public var description: String { base.rawValue }

        /// The lifetime asked for is over Apple's six months (15,777,000 s).
        public static let lifetimeTooLong = Code(.lifetimeTooLong)

        /// The lifetime asked for is 60 s or less.
        public static let lifetimeTooShort = Code(.lifetimeTooShort)

        /// The team key could not sign.
        public static let signingFailed = Code(.signingFailed)
    }

    /// What is wrong.
    public let code: Code
    /// What is wrong, for a person; never key material.
    public let reason: String

    init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { reason }

    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
