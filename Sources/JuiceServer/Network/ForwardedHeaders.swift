import Foundation

/// Reads the hops and scheme a chain of proxies reports: RFC 7239 `Forwarded`, or else
/// `X-Forwarded-For` and `X-Forwarded-Proto`. Each hop is the address a proxy saw its peer at
/// (`nil` when it is not an IP address: `unknown`, an obfuscated name, garbage); the list is in
/// order, client first, nearest proxy last.
struct ForwardedHeaders: Sendable, Hashable {
    /// The reported hops, leftmost first.
    var hops: [IPAddress?]
    /// The scheme the nearest proxy received the request with, lowercase.
    var proto: String?

    /// Parses the headers' values (every instance of each header, in order); `nil` when none is present.
    init?(forwarded: [String], xForwardedFor: [String], xForwardedProto: [String]) {
        if !forwarded.isEmpty {
            let elements = forwarded.flatMap { Self.split($0, on: ",") }
            var hops: [IPAddress?] = []
            var proto: String?
            for element in elements {
                var node: String?
                var elementProto: String?
                for pair in Self.split(element, on: ";") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    guard parts.count == 2 else { continue }
                    let value = Self.unquoted(parts[1])
                    switch parts[0].lowercased() {
                    case "for": node = value
                    case "proto": elementProto = value.lowercased()
                    default: break
                    }
                }
                hops.append(node.flatMap(Self.address(node:)))
                proto = elementProto
            }
            self.hops = hops
            self.proto = proto
            return
        }
        guard !xForwardedFor.isEmpty || !xForwardedProto.isEmpty else { return nil }
        self.hops = xForwardedFor.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map {
            IPAddress($0.trimmingCharacters(in: .whitespaces))
        }
        self.proto = xForwardedProto.flatMap { $0.split(separator: ",") }.last.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// The client: walking from the nearest hop leftwards, the first address that is not a trusted
    /// proxy (or the leftmost if all are). An unreadable hop stops the walk at the proxy that reported it.
    func client(peer: IPAddress, trusted: TrustedProxies) -> IPAddress {
        var client = peer
        for hop in hops.reversed() {
            guard trusted.contains(client), let hop else { break }
            client = hop
        }
        return client
    }

    /// A `Forwarded` node (`192.0.2.1`, `192.0.2.1:80`, `[2001:db8::1]:443`, `unknown`, `_hidden`) as an address.
    static func address(node: String) -> IPAddress? {
        if node.hasPrefix("[") {
            guard let end = node.firstIndex(of: "]") else { return nil }
            return IPAddress(node[node.index(after: node.startIndex)..<end])
        }
        if node.filter({ $0 == ":" }).count == 1, let colon = node.firstIndex(of: ":") {
            return IPAddress(node[..<colon])
        }
        return IPAddress(node)
    }

    /// Splits on `separator` outside double quotes.
    static func split(_ text: String, on separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == separator && !quoted {
                parts.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        parts.append(current)
        return parts.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private static func unquoted(_ value: String) -> String {
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
        return String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\", with: "")
    }
}
