/// A strict decoder for the CBOR that WebAuthn carries (attestation objects, COSE keys, extension
/// outputs): definite lengths only, integers and lengths in their shortest form, map keys (integers
/// or text) in CTAP2 canonical order without duplicates, no tags, no floats, no simple values but
/// false, true and null, and limits on size and depth. Every refusal is a specific ``CBORError``.
///
/// ```swift
/// let value = try CBORDecoder().decode(attestationObjectBytes)   // one item, nothing after it
/// let (key, end) = try CBORDecoder().decodePrefix(authData, from: 55) // an item inside other bytes
/// ```
package struct CBORDecoder: Sendable {
    /// The longest input read, in bytes.
    package var maximumSize: Int
    /// The deepest nesting of arrays and maps (a scalar at the top is depth 0).
    package var maximumDepth: Int

    package init(maximumSize: Int = 64 * 1024, maximumDepth: Int = 8) {
        self.maximumSize = maximumSize
        self.maximumDepth = maximumDepth
    }

    /// Decodes `bytes` as exactly one item.
    package func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        let (value, end) = try decodePrefix(bytes, from: 0)
        guard end == bytes.count else { throw .trailingBytes(offset: end) }
        return value
    }

    /// Decodes the one item that starts at `start` in `bytes` and returns it with the offset just
    /// after it; what follows is the caller's.
    package func decodePrefix(_ bytes: [UInt8], from start: Int) throws(CBORError) -> (CBORValue, Int) {
        guard bytes.count <= maximumSize else { throw .inputTooLarge(size: bytes.count, limit: maximumSize) }
        guard start >= 0, start < bytes.count else { throw .truncated(offset: max(start, 0)) }
        var reader = Reader(bytes: bytes, offset: start, maximumDepth: maximumDepth)
        let value = try reader.item(depth: 0)
        return (value, reader.offset)
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset: Int
        let maximumDepth: Int

        mutating func item(depth: Int) throws(CBORError) -> CBORValue {
            let start = offset
            let initial = try byte()
            let major = initial >> 5
            let info = initial & 0x1F
            if major == 7 { return try simple(info: info, at: start) }
            if major == 6 { throw .tagNotAllowed(offset: start) }
            let argument = try self.argument(info: info, at: start)
            switch major {
            case 0: return .unsigned(argument)
            case 1: return .negative(argument)
            case 2: return .bytes(Array(try take(argument, itemAt: start)))
            case 3:
                let raw = try take(argument, itemAt: start)
                guard let text = String(validating: raw, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
                return .text(text)
            case 4:
                guard depth < maximumDepth else { throw .tooDeep(limit: maximumDepth) }
                let count = try count(argument, itemAt: start)
                var elements: [CBORValue] = []
                elements.reserveCapacity(count)
                for _ in 0..<count { elements.append(try item(depth: depth + 1)) }
                return .array(elements)
            default:
                guard depth < maximumDepth else { throw .tooDeep(limit: maximumDepth) }
                return .map(try mapEntries(count: try count(argument, itemAt: start), depth: depth))
            }
        }

        mutating func mapEntries(count: Int, depth: Int) throws(CBORError) -> [CBORMapEntry] {
            var entries: [CBORMapEntry] = []
            entries.reserveCapacity(count)
            var previousKey: Range<Int>?
            for _ in 0..<count {
                let keyStart = offset
                let key = try item(depth: depth + 1)
                switch key {
                case .unsigned, .negative, .text: break
                default: throw .mapKeyNotAllowed(offset: keyStart)
                }
                let keyBytes = keyStart..<offset
                if let previousKey {
                    let order = canonicalOrder(previousKey, keyBytes)
                    if order == 0 { throw .duplicateMapKey(offset: keyStart) }
                    if order > 0 { throw .mapKeysNotCanonical(offset: keyStart) }
                }
                previousKey = keyBytes
                entries.append(CBORMapEntry(key: key, value: try item(depth: depth + 1)))
            }
            return entries
        }

        /// Negative when the key encoded at `lhs` comes first: the shorter encoding, then bytewise.
        func canonicalOrder(_ lhs: Range<Int>, _ rhs: Range<Int>) -> Int {
            if lhs.count != rhs.count { return lhs.count < rhs.count ? -1 : 1 }
            for (left, right) in zip(bytes[lhs], bytes[rhs]) where left != right {
                return left < right ? -1 : 1
            }
            return 0
        }

        mutating func simple(info: UInt8, at start: Int) throws(CBORError) -> CBORValue {
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 25, 26, 27: throw .floatNotAllowed(offset: start)
            case 28, 29, 30: throw .reservedAdditionalInformation(offset: start)
            case 31: throw .indefiniteLength(offset: start)
            default: throw .simpleValueNotAllowed(offset: start)
            }
        }

        /// The integer or length that follows an initial byte, refused unless in its shortest form.
        mutating func argument(info: UInt8, at start: Int) throws(CBORError) -> UInt64 {
            switch info {
            case 0..<24: return UInt64(info)
            case 24:
                let value = UInt64(try byte())
                guard value >= 24 else { throw .notShortestForm(offset: start) }
                return value
            case 25:
                let value = try bigEndian(count: 2)
                guard value > UInt64(UInt8.max) else { throw .notShortestForm(offset: start) }
                return value
            case 26:
                let value = try bigEndian(count: 4)
                guard value > UInt64(UInt16.max) else { throw .notShortestForm(offset: start) }
                return value
            case 27:
                let value = try bigEndian(count: 8)
                guard value > UInt64(UInt32.max) else { throw .notShortestForm(offset: start) }
                return value
            case 31: throw .indefiniteLength(offset: start)
            default: throw .reservedAdditionalInformation(offset: start)
            }
        }

        /// An element count, refused when even one byte per element would run past the input.
        func count(_ argument: UInt64, itemAt start: Int) throws(CBORError) -> Int {
            guard argument <= UInt64(bytes.count - offset) else { throw .truncated(offset: start) }
            return Int(argument)
        }

        mutating func take(_ length: UInt64, itemAt start: Int) throws(CBORError) -> ArraySlice<UInt8> {
            guard length <= UInt64(bytes.count - offset) else { throw .truncated(offset: start) }
            let end = offset + Int(length)
            defer { offset = end }
            return bytes[offset..<end]
        }

        mutating func byte() throws(CBORError) -> UInt8 {
            guard offset < bytes.count else { throw .truncated(offset: offset) }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func bigEndian(count: Int) throws(CBORError) -> UInt64 {
            guard count <= bytes.count - offset else { throw .truncated(offset: offset) }
            var value: UInt64 = 0
            for byte in bytes[offset..<offset + count] { value = value << 8 | UInt64(byte) }
            offset += count
            return value
        }
    }
}
