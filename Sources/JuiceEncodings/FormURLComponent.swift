/// One name or value of an `application/x-www-form-urlencoded` body or query string, encoded or
/// decoded.
///
/// Byte by byte, in one pass: a form is encoded and decoded on every code exchange, and Foundation's
/// `addingPercentEncoding`, `replacingOccurrences` and `removingPercentEncoding` cost several times more.
package enum FormURLComponent {
    /// `text` with every byte of its UTF-8 except RFC 3986's unreserved characters (`A`–`Z`, `a`–`z`,
    /// `0`–`9`, `-`, `.`, `_`, `~`) written as `%XX` with upper-case hex: a space is `%20`, `é` is `%C3%A9`.
    /// Safe in a form body, a query string and a fragment.
    package static func encode(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(upperHexDigits[Int(byte >> 4)])
                bytes.append(upperHexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `fields` as `name=value` pairs joined by `&`, in order, each side encoded with ``encode(_:)``.
    package static func encode(fields: [(String, String)]) -> String {
        fields.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }

    private static let upperHexDigits = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// The decoded text (`+` is a space, `%XX` a byte); `nil` for a broken percent escape (`%`, `%4`, `%zz`) or bytes that are not UTF-8.
    package static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next()?.hexDigitValue, let low = iterator.next()?.hexDigitValue else { return nil }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// One `name=value` pair of a form, each side decoded with ``decode(_:)`` (`nil` for a side that does
    /// not decode); a pair without `=` has the empty value.
    package struct Pair: Sendable {
        package let name: String?
        package let value: String?
    }

    /// The pairs of `text` (a body or a query string), split on `&`, empty pairs left out, in order. Each
    /// caller applies its own policy to a repeated name or a broken escape.
    package static func pairs(_ text: Substring) -> [Pair] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return Pair(name: decode(parts[0]), value: decode(parts.count > 1 ? parts[1] : ""))
        }
    }
}
