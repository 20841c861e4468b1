#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where an ``AppleKeySet`` gets Apple's public keys from.
public protocol AppleKeySource: Sendable {
    /// Fetches the current key set once.
    func fetchKeys() async throws -> FetchedKeys
}

/// One successful fetch of a JWKS document.
public struct FetchedKeys: Sendable {
    /// The keys.
    public var keySet: JSONWebKeySet
    /// How long the response may be cached, from `Cache-Control: max-age`, if the server said.
    public var maxAge: Duration?

    /// Creates a fetch result.
    public init(keySet: JSONWebKeySet, maxAge: Duration?) {
        self.keySet = keySet
        self.maxAge = maxAge
    }
}

/// A fixed key set, for offline verification (e.g. `juice verify-token --jwks FILE`).
public struct StaticAppleKeySource: AppleKeySource {
    private let keySet: JSONWebKeySet

    /// Creates a source that always answers `keySet`.
    public init(keySet: JSONWebKeySet) {
        self.keySet = keySet
    }

    public func fetchKeys() async throws -> FetchedKeys {
        FetchedKeys(keySet: keySet, maxAge: nil)
    }
}
