#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A signed client secret (ES256 JWT). Its description is redacted so it cannot leak into logs.
public struct ClientSecret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The JWT to send as `client_secret`.
    public let jwt: String
    /// The client id it authenticates (its `sub`).
    public let clientID: String
    /// When it was issued.
    public let issuedAt: Date
    /// When Apple stops accepting it.
    public let expiresAt: Date

    public var description: String { "ClientSecret(client_id: \(clientID), expires: \(expiresAt.formatted(.iso8601)), jwt: <redacted>)" }
    public var debugDescription: String { description }
}
