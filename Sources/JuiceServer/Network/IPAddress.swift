#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address, parsed strictly (no host names, no ports). An IPv4-mapped IPv6 address
/// (`::ffff:192.0.2.1`) is the IPv4 address it maps, so a dual-stack listener and a proxy list agree.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 bytes (IPv6), network order.
    let bytes: [UInt8]

    /// Parses dotted IPv4 (`192.0.2.1`) or IPv6 text (`2001:db8::1`, optionally in brackets).
    public init?(_ text: some StringProtocol) {
        var text = String(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        // inet_pton writes the address in network order: 4 bytes for IPv4, 16 for IPv6.
        if !text.contains(":") {
            var address = [UInt8](repeating: 0, count: 4)
            guard address.withUnsafeMutableBytes({ inet_pton(AF_INET, text, $0.baseAddress) }) == 1 else { return nil }
            self.bytes = address
            return
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        guard bytes.withUnsafeMutableBytes({ inet_pton(AF_INET6, text, $0.baseAddress) }) == 1 else { return nil }
        let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]
        self.bytes = bytes.starts(with: mappedPrefix) ? Array(bytes[12...]) : bytes
    }

    /// Whether this is an IPv4 address.
    public var isIPv4: Bool { bytes.count == 4 }

    /// The canonical text (`192.0.2.1`, `2001:db8::1`).
    public var description: String {
        var buffer = [CChar](repeating: 0, count: 64)
        var copy = bytes
        let family = isIPv4 ? AF_INET : AF_INET6
        let written = copy.withUnsafeMutableBytes { raw in
            buffer.withUnsafeMutableBufferPointer { inet_ntop(family, raw.baseAddress, $0.baseAddress, socklen_t($0.count)) }
        }
        guard written != nil else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
