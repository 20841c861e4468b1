import CryptoExtras
import Logging
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Apple's current identity-token signing keys, cached and refreshed.
///
/// - The key set is cached for the `Cache-Control: max-age` Apple sends (``defaultMaxAge`` when it
///   sends none), clamped to between ``minimumRefetchInterval`` and ``maximumMaxAge``.
/// - A token naming an unknown `kid` triggers one refetch (Apple rotates keys without notice), but
///   at most once per ``minimumRefetchInterval``: a flood of random key ids costs one fetch.
/// - Concurrent callers share one fetch (single flight).
/// - When a fetch fails, the last good keys stay in use.
///
/// ```swift
/// let keys = AppleKeySet(source: HTTPAppleKeySource(url: "https://appleid.apple.com/auth/keys"))
/// let verifier = IdentityTokenVerifier(keys: keys, audiences: ["com.example.app"])
/// ```
public actor AppleKeySet {
    /// Cache lifetime when the key endpoint sends no `max-age`.
    public let defaultMaxAge: Duration
    /// The shortest time between two fetches, whatever the reason for fetching.
    public let minimumRefetchInterval: Duration
    /// The longest a key set is cached, whatever `max-age` says.
    public let maximumMaxAge: Duration

    private let source: any AppleKeySource
    private nonisolated let time: TimeSource
    private let logger: Logger

    /// The cached keys and their expiry, readable without entering the actor (the common case on
    /// every verification); written only by the actor.
    private nonisolated let cache = Mutex<CachedKeys>(CachedKeys(keys: nil, expiresAt: .distantPast))
    private var lastAttempt: Date = .distantPast
    private var inFlight: Task<JSONWebKeySet, any Error>?

    /// Creates a key set.
    /// - Parameters:
    ///   - source: Where keys come from (usually ``HTTPAppleKeySource``).
    ///   - defaultMaxAge: Cache lifetime when the source gives none.
    ///   - minimumRefetchInterval: Fetches are at least this far apart.
    ///   - maximumMaxAge: Upper bound on any cache lifetime.
    ///   - time: The clock.
    ///   - logger: Receives debug messages about fetches and failures.
    public init(
        source: some AppleKeySource,
        defaultMaxAge: Duration = .seconds(3600),
        minimumRefetchInterval: Duration = .seconds(10),
        maximumMaxAge: Duration = .seconds(86_400),
        time: TimeSource = .system,
        logger: Logger = AppleSignInLogging.disabled
    ) {
        self.source = source
        self.defaultMaxAge = defaultMaxAge
        self.minimumRefetchInterval = minimumRefetchInterval
        self.maximumMaxAge = max(maximumMaxAge, minimumRefetchInterval)
        self.time = time
        self.logger = logger
    }

    /// Returns the RSA key named `kid`, fetching the key set when the cache is stale or lacks it.
    nonisolated func key(for kid: String) async throws(TokenVerificationError) -> _RSA.Signing.PublicKey {
        if let cached = freshKey(for: kid) { return cached }
        return try await resolve(kid)
    }

    /// The key named `kid` if the cache is fresh and holds it: the synchronous common case.
    nonisolated func freshKey(for kid: String) -> _RSA.Signing.PublicKey? {
        let now = time.now
        return cache.withLock { cache in
            guard now < cache.expiresAt else { return nil }
            return cache.keys?.keys[kid]
        }
    }

    /// The slow path: refresh if allowed, then look the key up in whatever is cached.
    private func resolve(_ kid: String) async throws(TokenVerificationError) -> _RSA.Signing.PublicKey {
        let now = time.now
        let canFetch = now.timeIntervalSince(lastAttempt) >= minimumRefetchInterval.seconds || inFlight != nil
        if canFetch {
            do {
                _ = try await refreshShared()
            } catch {
                logger.debug("Apple key fetch failed; keeping the last good keys", metadata: ["error": "\(error)"])
            }
        }
        guard let keys = cache.withLock({ $0.keys }) else {
            throw TokenVerificationError(.keysUnavailable, "Apple's signing keys could not be fetched and none are cached")
        }
        guard let key = keys.keys[kid] else {
            throw TokenVerificationError(.unknownKey, "no Apple signing key has the id \"\(kid.prefix(64))\"")
        }
        return key
    }

    /// Fetches the key set now (sharing a fetch already under way) and returns the key ids.
    @discardableResult
    public func refresh() async throws -> [String] {
        try await refreshShared().keyIDs
    }

    private func refreshShared() async throws -> JSONWebKeySet {
        if let inFlight {
            return try await inFlight.value
        }
        lastAttempt = time.now
        // The fetch is shared by every caller that arrives while it runs, so it must not be
        // cancelled with the first caller: it runs in its own task, which every caller awaits.
        let fetch = Task<JSONWebKeySet, any Error> {
            let fetched = try await self.source.fetchKeys()
            self.store(fetched)
            return fetched.keySet
        }
        inFlight = fetch
        defer { inFlight = nil }
        return try await fetch.value
    }

    private func store(_ fetched: FetchedKeys) {
        let maxAge = min(max(fetched.maxAge ?? defaultMaxAge, minimumRefetchInterval), maximumMaxAge)
        let expiresAt = time.now.addingTimeInterval(maxAge.seconds)
        cache.withLock { $0 = CachedKeys(keys: fetched.keySet, expiresAt: expiresAt) }
        logger.debug("Apple signing keys cached", metadata: ["kids": "\(fetched.keySet.keyIDs)", "max_age_s": "\(maxAge.seconds)"])
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

/// A key set and the time it stops being fresh.
private struct CachedKeys: Sendable {
    var keys: JSONWebKeySet?
    var expiresAt: Date
}
