import AppleSignIn
import Foundation

/// Limits failed password sign-ins per client address and username, and per client address, in a
/// sliding window.
///
/// The keys are the real client address (``ClientAddressMiddleware`` resolves it through trusted
/// proxies) and that address paired with the username: one client's failures never lock out
/// another client's correct password, however many clients share a proxy or a username is attacked.
/// Shared state lives in this actor; time comes from an injected ``AppleSignIn/TimeSource``.
/// Entries older than the window are dropped, and the table is bounded.
public actor LoginThrottle {
    /// The limits.
    public struct Limits: Sendable, Hashable {
        /// Failures allowed for one username from one client address within ``window``.
        public var perUsername: Int
        /// Failures allowed from one client address (any usernames) within ``window``.
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

    /// `nil` when another attempt is allowed for this username from this address; otherwise the
    /// whole seconds (at least 1) until one is.
    func retryAfter(username: String, address: String?) -> Int? {
        let now = time.now
        var wait: TimeInterval?
        for (key, limit) in [(Self.key(username: username, address: address), limits.perUsername), (Self.key(address: address), limits.perAddress)] {
            let recent = recent(key, now: now)
            guard recent.count >= limit else { continue }
            // Allowed again once enough of the failures have left the window to go below the limit.
            let index = recent.count - limit
            let until = recent.indices.contains(index) ? limits.window - now.timeIntervalSince(recent[index]) : limits.window
            wait = max(wait ?? 0, until)
        }
        return wait.map { max(1, Int(min($0, limits.window).rounded(.up))) }
    }

    /// Records a failed attempt.
    func recordFailure(username: String, address: String?) {
        let now = time.now
        if failures.count >= Self.maximumKeys { prune(now: now) }
        failures[Self.key(username: username, address: address), default: []].append(now)
        failures[Self.key(address: address), default: []].append(now)
    }

    /// Forgets this address's failures for a username after a successful sign-in.
    func recordSuccess(username: String, address: String?) {
        failures[Self.key(username: username, address: address)] = nil
    }

    private func recent(_ key: String, now: Date) -> [Date] {
        guard let dates = failures[key] else { return [] }
        let kept = dates.filter { now.timeIntervalSince($0) < limits.window }
        failures[key] = kept.isEmpty ? nil : kept
        return kept
    }

    private func prune(now: Date) {
        failures = failures.compactMapValues { dates in
            let kept = dates.filter { now.timeIntervalSince($0) < limits.window }
            return kept.isEmpty ? nil : kept
        }
        if failures.count >= Self.maximumKeys { failures.removeAll() }
    }

    private static func key(username: String, address: String?) -> String { "u:" + (address ?? "") + "\u{0}" + username }
    private static func key(address: String?) -> String { "a:" + (address ?? "") }
}
