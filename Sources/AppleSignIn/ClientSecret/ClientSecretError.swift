/// A client secret that cannot be made as asked.
public struct ClientSecretError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why.
    public let reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
