import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `application/x-www-form-urlencoded` both ways.
enum FormBody {
    /// The fields of `text`; a field whose percent-encoding is invalid is left out (the first of a repeated name wins).
    static func decode(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in FormURLComponent.pairs(text[...]) {
            guard let name = pair.name, let value = pair.value, fields[name] == nil else { continue }
            fields[name] = value
        }
        return fields
    }

    static func encode(_ fields: [(String, String)]) -> String {
        FormURLComponent.encode(fields: fields)
    }
}
