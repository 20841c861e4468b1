/// One CBOR data item of the kinds WebAuthn uses (RFC 8949 major types 0–5 and the simple values
/// false, true and null). Floats, tags, `undefined` and indefinite lengths have no case: the
/// decoder refuses them.
package enum CBORValue: Sendable, Equatable {
    /// An unsigned integer (major type 0).
    case unsigned(UInt64)
    /// A negative integer -1 - n (major type 1), kept as n so that every encodable value fits.
    case negative(UInt64)
    /// A byte string (major type 2).
    case bytes([UInt8])
    /// A UTF-8 text string (major type 3).
    case text(String)
    /// An array (major type 4).
    case array([CBORValue])
    /// A map (major type 5), its entries in encoded order, which the decoder has checked is canonical.
    case map([CBORMapEntry])
    /// `false` or `true`.
    case bool(Bool)
    /// `null`.
    case null

    /// The value as an `Int`, when it is an integer that fits.
    package var intValue: Int? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): value <= UInt64(Int.max) ? -1 - Int(value) : nil
        default: nil
        }
    }

    /// The map entry with integer key `key`, when the value is a map that has one.
    package subscript(intKey key: Int) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key.intValue == key }?.value
    }

    /// The map entry with text key `key`, when the value is a map that has one.
    package subscript(textKey key: String) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == .text(key) }?.value
    }
}

/// One key and value of a CBOR map.
package struct CBORMapEntry: Sendable, Equatable {
    package let key: CBORValue
    package let value: CBORValue

    package init(key: CBORValue, value: CBORValue) {
        self.key = key
        self.value = value
    }
}
