/// The media type of a `Content-Type` header without its parameters.
package enum MediaType {
    /// `type/subtype` of a `Content-Type` value: the part before any `;`, without surrounding spaces or
    /// tabs, in lower case (RFC 9110 §8.3.1: type and subtype are case-insensitive). `Application/JSON;
    /// charset=utf-8` gives `application/json`; `nil` gives `nil`.
    ///
    /// Byte by byte: every form and JSON request reads it, and Foundation's trimming and lower-casing
    /// cost more than the check they serve.
    package static func essence(of contentType: String?) -> String? {
        guard let contentType else { return nil }
        var bytes: [UInt8] = []
        for byte in contentType.utf8 {
            if byte == UInt8(ascii: ";") { break }
            bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
        }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
