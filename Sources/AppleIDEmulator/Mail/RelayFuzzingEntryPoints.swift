/// Synchronous ways into the relay's reading of a message's `From` for the libFuzzer target `mail-from`
/// in `Fuzz/` (not API: reachable only through `@_spi(Fuzzing) import AppleIDEmulator`).
///
/// The relay delivers a message only when every mailbox its `From` names is a registered source, so
/// what these return is exactly the list that check sees: a mailbox the parser failed to return would
/// slip past it.
@_spi(Fuzzing) public enum RelayFuzzingEntryPoints {
    /// Why a `From` was refused (the text the relay puts in its `550` reply).
    public struct Refusal: Error, Sendable {
        /// The reason, never empty.
        public let reason: String
    }

    /// The mailboxes of one `From` header value (unfolded or not), as ``MailboxListParser`` reads it.
    public static func mailboxes(inFromValue value: String) -> Result<[String], Refusal> {
        Result { () throws(MailboxListParser.Failure) in try MailboxListParser.addresses(in: value) }
            .mapError { Refusal(reason: $0.reason) }
    }

    /// The mailboxes of the one `From` header of a raw message (headers split and unfolded as on delivery).
    public static func mailboxes(inMessage raw: [UInt8]) -> Result<[String], Refusal> {
        MailContent(parsing: raw).from.mapError { Refusal(reason: $0.reason) }
    }

    /// The most mailboxes one `From` may name, and the longest value read, in octets.
    public static var limits: (mailboxes: Int, octets: Int) {
        (MailboxListParser.maximumMailboxes, MailboxListParser.maximumLength)
    }
}
