import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decoded `application/x-www-form-urlencoded` fields (a request body or a query string).
///
/// Decoding is strict: invalid percent-escapes, invalid UTF-8, a field given twice or a value longer
/// than the limit makes the whole input invalid, so no handler ever sees a half-decoded value.
struct FormFields: Sendable {
    /// Why a form could not be decoded; the text never includes a field's value.
    struct Invalid: Error, Sendable {
        let reason: String
    }

    private(set) var values: [String: String] = [:]

    /// The longest value accepted for any field.
    static let maximumValueLength = 8192
    /// The most fields accepted.
    static let maximumFieldCount = 64

    init() {}

    init(_ values: [String: String]) {
        self.values = values
    }

    /// Decodes `text`.
    init(decoding text: Substring) throws(Invalid) {
        if text.isEmpty { return }
        let pairs = FormURLComponent.pairs(text)
        guard pairs.count <= Self.maximumFieldCount else { throw Invalid(reason: "too many fields") }
        for pair in pairs {
            guard let name = pair.name, !name.isEmpty else {
                throw Invalid(reason: "a field name is not valid percent-encoded UTF-8")
            }
            guard let value = pair.value else {
                throw Invalid(reason: "the field \"\(name.prefix(40))\" is not valid percent-encoded UTF-8")
            }
            guard value.utf8.count <= Self.maximumValueLength else {
                throw Invalid(reason: "the field \"\(name.prefix(40))\" is longer than \(Self.maximumValueLength) bytes")
            }
            guard values.updateValue(value, forKey: name) == nil else {
                throw Invalid(reason: "the field \"\(name.prefix(40))\" appears more than once")
            }
        }
    }

    /// Decodes UTF-8 bytes.
    init(decoding bytes: some Collection<UInt8>) throws(Invalid) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Invalid(reason: "the body is not UTF-8")
        }
        try self.init(decoding: text[...])
    }

    subscript(name: String) -> String? {
        values[name]
    }

    /// The value, or `nil` when missing or empty.
    func nonEmpty(_ name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    /// Encodes `pairs` as a form (also for query strings and fragments).
    static func encode(_ pairs: [(String, String)]) -> String {
        FormURLComponent.encode(fields: pairs)
    }
}
