/// Why ``CBORDecoder`` refused its input: one case per rule.
package enum CBORError: Error, Sendable, Equatable {
    /// The input ends inside an item.
    case truncated(offset: Int)
    /// Bytes follow the one item the input must hold.
    case trailingBytes(offset: Int)
    /// The input is longer than the decoder's limit.
    case inputTooLarge(size: Int, limit: Int)
    /// Items nest deeper than the decoder's limit.
    case tooDeep(limit: Int)
    /// An indefinite length (additional information 31).
    case indefiniteLength(offset: Int)
    /// Additional information 28, 29 or 30, which RFC 8949 reserves.
    case reservedAdditionalInformation(offset: Int)
    /// An integer or length not in its shortest form.
    case notShortestForm(offset: Int)
    /// A tag (major type 6).
    case tagNotAllowed(offset: Int)
    /// A floating-point number.
    case floatNotAllowed(offset: Int)
    /// A simple value other than false, true and null (`undefined` included).
    case simpleValueNotAllowed(offset: Int)
    /// A text string that is not valid UTF-8.
    case invalidUTF8(offset: Int)
    /// A map key that is neither an integer nor a text string.
    case mapKeyNotAllowed(offset: Int)
    /// A map key that equals the one before it.
    case duplicateMapKey(offset: Int)
    /// A map key that sorts before the one before it (CTAP2 canonical order: shorter encoding
    /// first, then bytewise).
    case mapKeysNotCanonical(offset: Int)

    /// A sentence for logs and error replies (it quotes no input).
    package var reason: String {
        switch self {
        case .truncated(let offset): "the CBOR ends inside an item (at byte \(offset))"
        case .trailingBytes(let offset): "bytes follow the CBOR item (from byte \(offset))"
        case .inputTooLarge(let size, let limit): "the CBOR is \(size) bytes, over the limit of \(limit)"
        case .tooDeep(let limit): "the CBOR nests deeper than \(limit) levels"
        case .indefiniteLength(let offset): "an indefinite length at byte \(offset)"
        case .reservedAdditionalInformation(let offset): "reserved additional information at byte \(offset)"
        case .notShortestForm(let offset): "an integer or length not in its shortest form at byte \(offset)"
        case .tagNotAllowed(let offset): "a tag at byte \(offset)"
        case .floatNotAllowed(let offset): "a floating-point number at byte \(offset)"
        case .simpleValueNotAllowed(let offset): "a simple value other than false, true or null at byte \(offset)"
        case .invalidUTF8(let offset): "a text string that is not UTF-8 at byte \(offset)"
        case .mapKeyNotAllowed(let offset): "a map key that is neither an integer nor text at byte \(offset)"
        case .duplicateMapKey(let offset): "a duplicate map key at byte \(offset)"
        case .mapKeysNotCanonical(let offset): "map keys not in canonical order at byte \(offset)"
        }
    }
}
