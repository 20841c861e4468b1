import Foundation

/// A CIDR range (`10.0.0.0/8`, `2001:db8::/32`), or a single address (`/32`, `/128`).
public struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    /// The first address of the range (host bits cleared).
    let base: IPAddress
    /// The prefix length in bits.
    let prefixLength: Int

    /// Parses `address` or `address/prefix`; the prefix is 0…32 for IPv4 and 0…128 for IPv6.
    public init?(_ text: some StringProtocol) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let address = IPAddress(parts[0]) else { return nil }
        let bits = address.bytes.count * 8
        var length = bits
        if parts.count == 2 {
            // Digits only (no sign, no spaces), and few enough that the conversion cannot overflow.
            guard !parts[1].isEmpty, parts[1].count <= 3, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let parsed = Int(parts[1]),
                (0...bits).contains(parsed)
            else { return nil }
            length = parsed
        }
        self.prefixLength = length
        self.base = IPAddress(bytes: Self.masked(address.bytes, length))
    }

    /// Whether `address` lies in the range (an IPv4 address is never in an IPv6 range, and the reverse).
    public func contains(_ address: IPAddress) -> Bool {
        address.bytes.count == base.bytes.count && Self.masked(address.bytes, prefixLength) == base.bytes
    }

    public var description: String { "\(base)/\(prefixLength)" }

    private static func masked(_ bytes: [UInt8], _ length: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let keep = min(max(length - index * 8, 0), 8)
            return keep == 8 ? byte : byte & ~(UInt8(0xFF) >> keep)
        }
    }
}

extension IPAddress {
    init(bytes: [UInt8]) { self.bytes = bytes }
}
