@_spi(Fuzzing) import AppleIDEmulator
import FuzzSupport

// Input: a flags byte, then either one `From` header value (flags even), as the relay's
// `MailboxListParser` reads it, or a whole message (flags odd), whose headers are split and unfolded
// and whose one `From` is read as on delivery (none or several `From` headers are refused).
//
// Every mailbox the relay returns is checked against the team's registered sources, so a returned
// address must be one plain `local@domain`: a single `@`, a non-empty local part and dotted domain, no
// white space, CR, LF or other control character, no character that could start another address or a
// comment, lowercased; and at most the limit of mailboxes.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMailFrom(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let rest = Array(bytes.dropFirst())
    let result: Result<[String], RelayFuzzingEntryPoints.Refusal>
    if bytes[0] & 1 == 0 {
        let value = String(decoding: rest, as: UTF8.self)
        result = RelayFuzzingEntryPoints.mailboxes(inFromValue: value)
        if case .success = result {
            fuzzRequire(value.utf8.count <= RelayFuzzingEntryPoints.limits.octets, "accepted a value over the length limit")
        }
    } else {
        result = RelayFuzzingEntryPoints.mailboxes(inMessage: rest)
    }
    switch result {
    case .success(let addresses):
        fuzzRequire(!addresses.isEmpty, "accepted a From that names nobody")
        fuzzRequire(addresses.count <= RelayFuzzingEntryPoints.limits.mailboxes, "accepted more mailboxes than the limit")
        for address in addresses { checkPlainAddress(address) }
    case .failure(let refusal):
        fuzzRequire(!refusal.reason.isEmpty, "a refusal without a reason")
    }
    return 0
}

/// One `local@domain` the source check can compare as it is.
func checkPlainAddress(_ address: String) {
    let parts = address.split(separator: "@", omittingEmptySubsequences: false)
    fuzzRequire(parts.count == 2, "an address without exactly one @: \(address.debugDescription)")
    fuzzRequire(!parts[0].isEmpty, "an empty local part: \(address.debugDescription)")
    fuzzRequire(
        parts[1].contains(".") && !parts[1].hasPrefix(".") && !parts[1].hasSuffix("."), "a domain that is not dotted: \(address.debugDescription)")
    fuzzRequire(
        !address.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F || "<>(),;:\\\"[]".unicodeScalars.contains($0) },
        "white space, a control or a special character in an address: \(address.debugDescription)")
    fuzzRequire(address == address.lowercased(), "an address not lowercased: \(address.debugDescription)")
}
