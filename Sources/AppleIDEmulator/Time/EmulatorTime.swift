#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the emulator reads the current time.
///
/// Every time-dependent rule (code expiry, token lifetimes, client-secret expiry, key retirement,
/// notification retries) asks an `EmulatorTime`, so tests move time explicitly instead of sleeping.
///
/// ```swift
/// let time = EmulatorTime { Date(timeIntervalSince1970: 1_750_000_000) }
/// ```
public struct EmulatorTime: Sendable {
    private let read: @Sendable () -> Date

    /// Creates a time source from a closure returning the current date.
    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    /// The current time.
    public var now: Date { read() }

    /// The system's wall clock.
    public static let system = EmulatorTime { Date() }
}
