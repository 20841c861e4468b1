import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `application/x-www-form-urlencoded`, as browsers post it and as Apple's token endpoint expects it.
public enum FormURLEncoding {
    /// Encodes fields in order.
    public static func encode(_ fields: [(String, String)]) -> String {
        FormURLComponent.encode(fields: fields)
    }

    /// Percent-escapes one name or value: every byte but RFC 3986's unreserved characters as `%XX`.
    public static func escape(_ text: String) -> String {
        FormURLComponent.encode(text)
    }

    /// Decodes a body into fields in order; `nil` when a percent escape is broken or the bytes are not UTF-8.
    public static func decode(_ body: String) -> [(String, String)]? {
        var fields: [(String, String)] = []
        for pair in FormURLComponent.pairs(body[...]) {
            guard let name = pair.name, let value = pair.value else { return nil }
            fields.append((name, value))
        }
        return fields
    }
}
