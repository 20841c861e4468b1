import JuiceEncodings

/// Synchronous ways into the WebAuthn parsers for the libFuzzer target `cbor` in `Fuzz/` (not API:
/// reachable only through `@_spi(Fuzzing) import WebAuthn`).
@_spi(Fuzzing) public enum WebAuthnFuzzingEntryPoints {
    /// Why an input was refused.
    public struct Refusal: Error, Sendable {
        /// The reason, never empty.
        public let reason: String
        /// The PasskeyError code, when a ceremony parser refused it.
        public let code: String?
    }

    /// Decodes `bytes` as one CBOR item and returns the item encoded again, canonically. The decoder
    /// accepts only the one canonical encoding of a value, so an accepted input must come back byte
    /// for byte.
    public static func cborRoundTrip(_ bytes: [UInt8]) -> Result<[UInt8], Refusal> {
        Result { () throws(CBORError) in try CBORDecoder().decode(bytes) }
            .map { value in
                var output: [UInt8] = []
                encode(value, into: &output)
                return output
            }
            .mapError { Refusal(reason: $0.reason, code: nil) }
    }

    /// Reads `bytes` as an attestation object (its authenticator data, attested credential and
    /// COSE key included) and returns the credential id's length.
    public static func attestationObject(_ bytes: [UInt8]) -> Result<Int, Refusal> {
        Result { () throws(PasskeyError) in try AttestationObject(bytes) }
            .map { $0.authenticatorData.attestedCredential?.credentialID.count ?? 0 }
            .mapError { Refusal(reason: $0.reason, code: $0.code.description) }
    }

    /// Reads `bytes` as the authenticator data of an assertion and returns its counter.
    public static func authenticatorData(_ bytes: [UInt8]) -> Result<UInt32, Refusal> {
        Result { () throws(PasskeyError) in try AuthenticatorData(bytes) }
            .map(\.signCount)
            .mapError { Refusal(reason: $0.reason, code: $0.code.description) }
    }

    /// The canonical encoding of `value` (shortest arguments, definite lengths), written independently
    /// of the decoder.
    private static func encode(_ value: CBORValue, into output: inout [UInt8]) {
        func head(_ major: UInt8, _ argument: UInt64) {
            switch argument {
            case 0..<24: output.append(major << 5 | UInt8(argument))
            case 24...0xFF: output += [major << 5 | 24, UInt8(argument)]
            case 0x100...0xFFFF: output += [major << 5 | 25] + (0..<2).reversed().map { UInt8(truncatingIfNeeded: argument >> ($0 * 8)) }
            case 0x1_0000...0xFFFF_FFFF: output += [major << 5 | 26] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: argument >> ($0 * 8)) }
            default: output += [major << 5 | 27] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: argument >> ($0 * 8)) }
            }
        }
        switch value {
        case .unsigned(let number): head(0, number)
        case .negative(let number): head(1, number)
        case .bytes(let bytes):
            head(2, UInt64(bytes.count))
            output += bytes
        case .text(let text):
            head(3, UInt64(text.utf8.count))
            output += text.utf8
        case .array(let elements):
            head(4, UInt64(elements.count))
            for element in elements { encode(element, into: &output) }
        case .map(let entries):
            head(5, UInt64(entries.count))
            for entry in entries {
                encode(entry.key, into: &output)
                encode(entry.value, into: &output)
            }
        case .bool(let flag): output.append(flag ? 0xF5 : 0xF4)
        case .null: output.append(0xF6)
        }
    }
}
