/// Synchronous ways into the emulator's parsers for the libFuzzer targets in `Fuzz/` (not API: reachable
/// only through `@_spi(Fuzzing) import AppleIDEmulator`).
@_spi(Fuzzing) public enum EmulatorFuzzingEntryPoints {
    /// The relay's reading of a message's `From`: every mailbox of its one `From` header, as
    /// `MailContent` reads it from a raw message (headers, blank line, body), or the reason it is refused.
    public static func headerFrom(ofMessage raw: [UInt8]) -> Result<[String], any Error> {
        MailContent(parsing: raw).from.mapError { $0 }
    }

    /// `MailboxListParser` on a header value alone.
    public static func mailboxList(_ value: String) -> Result<[String], any Error> {
        Result { () throws(MailboxListParser.Failure) in try MailboxListParser.addresses(in: value) }.mapError { $0 }
    }
}
