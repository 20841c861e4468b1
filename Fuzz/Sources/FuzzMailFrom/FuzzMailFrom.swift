@_spi(Fuzzing) import AppleIDEmulator
import FuzzSupport

// Input: a flags byte, then either a whole message as the relay receives it after DATA (flags bit 0
// clear: headers, folding, several From headers, a body) or a From header value alone (bit 0 set).
// Property of every accepted input: one to 32 mailboxes, each `local@domain` with one `@`, a non-empty
// local part and domain, lowercase, and no white space, control character, `<`, `>` or `,` — so no
// second mailbox can hide inside a returned address.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMailFrom(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let flags = data[0]
    let rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let result =
        flags & 1 == 0
        ? EmulatorFuzzingEntryPoints.headerFrom(ofMessage: rest)
        : EmulatorFuzzingEntryPoints.mailboxList(String(decoding: rest, as: UTF8.self))
    guard case .success(let addresses) = result else { return 0 }
    fuzzRequire(!addresses.isEmpty && addresses.count <= 32, "accepted \(addresses.count) mailboxes")
    for address in addresses {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        fuzzRequire(parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty, "accepted a malformed address")
        fuzzRequire(address == address.lowercased(), "accepted an address that is not lowercase")
        fuzzRequire(
            !address.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F || "<>,".unicodeScalars.contains($0) },
            "accepted an address with a separator or control character")
    }
    return 0
}
