import FuzzSupport
@_spi(Fuzzing) import WebAuthn

// Input: a flags byte, then the bytes to read: as one CBOR item (flags % 3 == 0), as an attestation
// object (1) or as an assertion's authenticator data (2).
//
// Properties: the CBOR decoder accepts only the canonical encoding of a value (shortest arguments,
// definite lengths, keys in canonical order without duplicates), so an accepted item encodes back to
// exactly its input; an accepted attestation object carries a credential id of 1 to 1023 bytes; every
// refusal has a reason, and a ceremony parser's refusal a code.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBOR(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let rest = Array(bytes.dropFirst())
    switch bytes[0] % 3 {
    case 0:
        switch WebAuthnFuzzingEntryPoints.cborRoundTrip(rest) {
        case .success(let encoded): fuzzRequire(encoded == rest, "an accepted item is not its canonical encoding")
        case .failure(let refusal): fuzzRequire(!refusal.reason.isEmpty, "a refusal without a reason")
        }
    case 1:
        switch WebAuthnFuzzingEntryPoints.attestationObject(rest) {
        case .success(let length): fuzzRequire((1...1023).contains(length), "an accepted credential id of \(length) bytes")
        case .failure(let refusal): fuzzRequire(!refusal.reason.isEmpty && refusal.code != nil, "a refusal without a reason or code")
        }
    default:
        switch WebAuthnFuzzingEntryPoints.authenticatorData(rest) {
        case .success: fuzzRequire(rest.count >= 37, "accepted authenticator data shorter than 37 bytes")
        case .failure(let refusal): fuzzRequire(!refusal.reason.isEmpty && refusal.code != nil, "a refusal without a reason or code")
        }
    }
    return 0
}
