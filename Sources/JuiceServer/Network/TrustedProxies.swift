/// The reverse proxies (load balancers, TLS terminators) whose forwarding headers Juice believes:
/// `X-Forwarded-For`, `Forwarded` and `X-Forwarded-Proto` are read only on connections from one of
/// these ranges, and ignored from anyone else.
///
/// ```swift
/// let proxies = try TrustedProxies(parsing: ["10.0.0.0/8", "::1"])
/// ```
public struct TrustedProxies: Sendable, Hashable {
    /// The ranges.
    public let networks: [IPNetwork]

    /// No proxy is trusted: the TCP peer is the client.
    public static let none = TrustedProxies(networks: [])

    /// Creates the list from parsed ranges.
    public init(networks: [IPNetwork]) {
        self.networks = networks
    }

    /// Parses CIDR ranges or single addresses (IPv4 or IPv6).
    /// - Throws: ``InvalidEntry`` naming the first entry that is neither.
    public init(parsing entries: [String]) throws(InvalidEntry) {
        var networks: [IPNetwork] = []
        for entry in entries {
            guard let network = IPNetwork(entry) else { throw InvalidEntry(entry: String(entry.prefix(100))) }
            networks.append(network)
        }
        self.networks = networks
    }

    /// Whether `address` belongs to a trusted proxy.
    public func contains(_ address: IPAddress) -> Bool {
        networks.contains { $0.contains(address) }
    }

    /// An entry that is not an IP address or CIDR range.
    public struct InvalidEntry: Error, Sendable, Hashable, CustomStringConvertible {
        /// The entry (at most 100 characters of it).
        public let entry: String

        public var description: String {
            "\"\(entry)\" is not an IP address or CIDR range (e.g. 10.0.0.0/8, 2001:db8::/32)"
        }
    }
}
