/// One name or value of an `application/x-www-form-urlencoded` body or query string, decoded:
/// `+` is a space and `%XX` a byte, and the bytes must be UTF-8.
///
/// Byte by byte, in one pass: the token endpoint decodes a form on every code exchange, and
/// Foundation's `replacingOccurrences` plus `removingPercentEncoding` cost several times more.
package enum FormURLComponent {
    /// The decoded text; `nil` for a broken percent escape (`%`, `%4`, `%zz`) or bytes that are not UTF-8.
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
}
