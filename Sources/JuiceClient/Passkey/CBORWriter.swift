/// The few CBOR items (RFC 8949) an attestation object and a COSE key need, written in the shortest
/// form: integers, byte and text strings, and map heads. The caller writes map entries in CTAP2
/// canonical order (shorter encoded keys first, then bytewise), as relying parties demand.
enum CBORWriter {
    /// An integer: major type 0 for zero and above, 1 for negatives.
    static func integer(_ value: Int) -> [UInt8] {
        value >= 0 ? head(0, UInt64(value)) : head(1, UInt64(-1 - value))
    }

    /// A byte string (major type 2).
    static func bytes(_ value: some Collection<UInt8>) -> [UInt8] {
        head(2, UInt64(value.count)) + value
    }

    /// A text string (major type 3) of the UTF-8 of `value`.
    static func text(_ value: String) -> [UInt8] {
        head(3, UInt64(value.utf8.count)) + Array(value.utf8)
    }

    /// The head of a map (major type 5) of `count` pairs; the pairs follow.
    static func mapHead(count: Int) -> [UInt8] {
        head(5, UInt64(count))
    }

    /// A major type and its argument in the fewest bytes: inline below 24, else 1, 2, 4 or 8 bytes.
    private static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        let (info, size): (UInt8, Int) =
            switch argument {
            case 0..<24: (UInt8(argument), 0)
            case 24...0xFF: (24, 1)
            case 0x100...0xFFFF: (25, 2)
            case 0x1_0000...0xFFFF_FFFF: (26, 4)
            default: (27, 8)
            }
        return [type | info] + (0..<size).reversed().map { UInt8(truncatingIfNeeded: argument >> ($0 * 8)) }
    }
}
