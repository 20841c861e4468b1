#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the toolkit reads the current time.
///
/// Every time-dependent rule (token expiry, key-cache lifetime, client-secret renewal) asks a
/// `TimeSource`, so tests can move time explicitly instead of sleeping.
///
/// ```swift
/// let verifier = IdentityTokenVerifier(keys: keys, audiences: ["com.example.app"], time: .system)
/// ```
public struct TimeSource: Sendable {
    private let read: @Sendable () -> Date

    /// Creates a time source from a closure returning the current date.
    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    /// The current time.
    public var now: Date { read() }

    /// The system's wall clock.
    public static let system = TimeSource { Date() }

    /// A time source frozen at `date` (useful for verifying old tokens from the command line).
    public static func fixed(_ date: Date) -> TimeSource {
        TimeSource { date }
    }
}
