import AppleSignIn
import Foundation

/// Limits failed password sign-ins per username and per client address, in a sliding window.
///
/// Shared state lives in this actor; time comes from an injected ``AppleSignIn/TimeSource``.
/// Entries older than the window are dropped, and the table is bounded.
public actor LoginThrottle {
    /// The limits.
    public struct Limits: Sendable, Hashable {
        /// Failures allowed per username within ``window``.
        public var perUsername: Int
        /// Failures allowed per client address within ``window``.
        public var perAddress: Int
        /// The window.
        public var window: TimeInterval

        public init(perUsername: Int = 5, perAddress: Int = 20, window: TimeInterval = 900) {
            self.perUsername = perUsername
            self.perAddress = perAddress
            self.window = window
        }
    }

    private let limits: Limits
    private let time: TimeSource
    private var failures: [String: [Date]] = [:]
    private static let maximumKeys = 100_000

    init(limits: Limits, time: TimeSource) {
        self.limits = limits
        self.time = time
    }

    /// Whether another attempt is allowed for this username and address.
    func allows(username: String, address: String?) -> Bool {
        let now = time.now
        if recent(Self.key(username: username), now: now) >= limits.perUsername { return false }
        if let address, recent(Self.key(address: address), now: now) >= limits.perAddress { return false }
        return true
    }

    /// Records a failed attempt.
    func recordFailure(username: String, address: String?) {
        let now = time.now
        if failures.count >= Self.maximumKeys { prune(now: now) }
        failures[Self.key(username: username), default: []].append(now)
        if let address { failures[Self.key(address: address), default: []].append(now) }
    }

    /// Forgets a username's failures after a successful sign-in.
    func recordSuccess(username: String) {
        failures[Self.key(username: username)] = nil
    }

    private func recent(_ key: String, now: Date) -> Int {
        guard let dates = failures[key] else { return 0 }
        let kept = dates.filter { now.timeIntervalSince($0) < limits.window }
        failures[key] = kept.isEmpty ? nil : kept
        return kept.count
    }

    private func prune(now: Date) {
        failures = failures.compactMapValues { dates in
            let kept = dates.filter { now.timeIntervalSince($0) < limits.window }
            return kept.isEmpty ? nil : kept
        }
        if failures.count >= Self.maximumKeys { failures.removeAll() }
    }

    private static func key(username: String) -> String { "u:" + username }
    private static func key(address: String) -> String { "a:" + address }
}
