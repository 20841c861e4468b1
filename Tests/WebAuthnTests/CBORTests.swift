import Testing

@testable import WebAuthn

@Suite("CBORDecoder: only the CBOR WebAuthn writes")
struct CBORTests {
    @Test(
        "well-formed canonical items decode to their values",
        arguments: [
            ([0x00], .unsigned(0)), ([0x17], .unsigned(23)), ([0x18, 0x18], .unsigned(24)), ([0x19, 0x01, 0x00], .unsigned(256)),
            ([0x1A, 0x00, 0x01, 0x00, 0x00], .unsigned(65536)),
            ([0x1B, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00], .unsigned(1 << 32)),
            ([0x1B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], .unsigned(UInt64.max)),
            ([0x20], .negative(0)), ([0x38, 0x63], .negative(99)), ([0x39, 0x01, 0x00], .negative(256)),
            ([0x40], .bytes([])), ([0x43, 1, 2, 3], .bytes([1, 2, 3])), ([0x62, 0x68, 0x69], .text("hi")),
            ([0x63, 0xE2, 0x82, 0xAC], .text("€")), ([0x80], .array([])), ([0x82, 0x01, 0xF6], .array([.unsigned(1), .null])),
            ([0xF4], .bool(false)), ([0xF5], .bool(true)), ([0xF6], .null), ([0xA0], .map([])),
            // COSE order: 1, 3, -1 (one-byte keys, bytewise), then a longer text key.
            (
                [0xA4, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x61, 0x61, 0xF5],
                .map([
                    .init(key: .unsigned(1), value: .unsigned(2)), .init(key: .unsigned(3), value: .negative(6)),
                    .init(key: .negative(0), value: .unsigned(1)), .init(key: .text("a"), value: .bool(true)),
                ])
            ),
        ] as [([UInt8], CBORValue)])
    func decodes(input: [UInt8], expected: CBORValue) throws {
        #expect(try CBORDecoder().decode(input) == expected)
    }

    @Test(
        "each rule has its own refusal",
        arguments: [
            ([], .truncated(offset: 0)),
            ([0x18], .truncated(offset: 1)),
            ([0x19, 0x01], .truncated(offset: 1)),
            ([0x43, 1, 2], .truncated(offset: 0)),
            ([0x82, 0x01], .truncated(offset: 0)),
            ([0x82, 0x19, 0x01], .truncated(offset: 2)),
            ([0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], .truncated(offset: 0)),
            ([0x5B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], .truncated(offset: 0)),
            ([0x00, 0x00], .trailingBytes(offset: 1)),
            ([0x18, 0x17], .notShortestForm(offset: 0)),
            ([0x19, 0x00, 0xFF], .notShortestForm(offset: 0)),
            ([0x1A, 0x00, 0x00, 0xFF, 0xFF], .notShortestForm(offset: 0)),
            ([0x1B, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF], .notShortestForm(offset: 0)),
            ([0x58, 0x01, 0x00], .notShortestForm(offset: 0)),
            ([0x38, 0x00], .notShortestForm(offset: 0)),
            ([0x5F, 0x41, 0x00, 0xFF], .indefiniteLength(offset: 0)),
            ([0x9F, 0xFF], .indefiniteLength(offset: 0)),
            ([0xBF, 0xFF], .indefiniteLength(offset: 0)),
            ([0xFF], .indefiniteLength(offset: 0)),
            ([0x1C], .reservedAdditionalInformation(offset: 0)),
            ([0xFC], .reservedAdditionalInformation(offset: 0)),
            ([0xC0, 0x00], .tagNotAllowed(offset: 0)),
            ([0xD8, 0x18, 0x40], .tagNotAllowed(offset: 0)),
            ([0xF9, 0x3C, 0x00], .floatNotAllowed(offset: 0)),
            ([0xFA, 0x3F, 0x80, 0x00, 0x00], .floatNotAllowed(offset: 0)),
            ([0xFB, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0], .floatNotAllowed(offset: 0)),
            ([0xF7], .simpleValueNotAllowed(offset: 0)),
            ([0xF0], .simpleValueNotAllowed(offset: 0)),
            ([0xF8, 0x20], .simpleValueNotAllowed(offset: 0)),
            ([0x62, 0xC3, 0x28], .invalidUTF8(offset: 0)),
            ([0x61, 0xFF], .invalidUTF8(offset: 0)),
            ([0xA1, 0x40, 0x00], .mapKeyNotAllowed(offset: 1)),
            ([0xA1, 0x80, 0x00], .mapKeyNotAllowed(offset: 1)),
            ([0xA1, 0xF5, 0x00], .mapKeyNotAllowed(offset: 1)),
            ([0xA2, 0x01, 0x00, 0x01, 0x00], .duplicateMapKey(offset: 3)),
            ([0xA2, 0x61, 0x61, 0x00, 0x61, 0x61, 0x00], .duplicateMapKey(offset: 4)),
            ([0xA2, 0x03, 0x00, 0x01, 0x00], .mapKeysNotCanonical(offset: 3)),
            ([0xA2, 0x20, 0x00, 0x01, 0x00], .mapKeysNotCanonical(offset: 3)),
            ([0xA2, 0x62, 0x61, 0x61, 0x00, 0x61, 0x62, 0x00], .mapKeysNotCanonical(offset: 5)),
            ([0xA2, 0x18, 0x18, 0x00, 0x17, 0x00], .mapKeysNotCanonical(offset: 4)),
        ] as [([UInt8], CBORError)])
    func refuses(input: [UInt8], expected: CBORError) {
        #expect(throws: expected) { try CBORDecoder().decode(input) }
        #expect(!expected.reason.isEmpty)
    }

    @Test("nesting past the depth limit is refused; at the limit it decodes")
    func depth() throws {
        let decoder = CBORDecoder(maximumDepth: 4)
        #expect(try decoder.decode([0x81, 0x81, 0x81, 0x81, 0x00]) != .null)
        #expect(throws: CBORError.tooDeep(limit: 4)) { try decoder.decode([0x81, 0x81, 0x81, 0x81, 0x81, 0x00]) }
        #expect(throws: CBORError.tooDeep(limit: 4)) { try decoder.decode([0xA1, 0x00, 0xA1, 0x00, 0xA1, 0x00, 0xA1, 0x00, 0x80]) }
        let deep = [UInt8](repeating: 0x81, count: 100_000) + [0x00]
        #expect(throws: CBORError.inputTooLarge(size: deep.count, limit: 64 * 1024)) { try CBORDecoder().decode(deep) }
        #expect(throws: CBORError.tooDeep(limit: 8)) { try CBORDecoder().decode(Array(deep.suffix(1000))) }
    }

    @Test("an input over the size limit is refused before it is read")
    func size() {
        let decoder = CBORDecoder(maximumSize: 8)
        #expect(throws: CBORError.inputTooLarge(size: 9, limit: 8)) { try decoder.decode([0x48, 1, 2, 3, 4, 5, 6, 7, 8]) }
    }

    @Test("a prefix decodes and says where the rest begins")
    func prefix() throws {
        let (value, end) = try CBORDecoder().decodePrefix([0xFF, 0x82, 0x01, 0x02, 0x99], from: 1)
        #expect(value == .array([.unsigned(1), .unsigned(2)]))
        #expect(end == 4)
        #expect(throws: CBORError.truncated(offset: 5)) { try CBORDecoder().decodePrefix([0x00, 0x00, 0x00, 0x00, 0x00], from: 5) }
    }
}
