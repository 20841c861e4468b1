import Testing

@_spi(Fuzzing) @testable import AppleIDEmulator

/// The `mail-from` fuzz target's ways in read a `From` exactly as delivery does: the issue's three
/// bypasses name (or refuse) every mailbox, and ordinary senders give their one address.
@Suite("Relay fuzzing entry points")
struct RelayFuzzingEntryPointsTests {
    static func message(_ fromLines: String) -> [UInt8] {
        Array((fromLines + "Subject: Hi\r\n\r\nHello\r\n").utf8)
    }

    @Test("A From value gives every mailbox, the hidden foreign one too")
    func value() throws {
        let listed = try RelayFuzzingEntryPoints.mailboxes(inFromValue: "Evil <evil@evil.example>, <hello@juice.test>").get()
        #expect(listed == ["evil@evil.example", "hello@juice.test"])
        let commented = try RelayFuzzingEntryPoints.mailboxes(inFromValue: "evil@evil.example (<hello@juice.test>)").get()
        #expect(commented == ["evil@evil.example"])
    }

    @Test("A message answers as MailContent does: one From read, several refused with a reason")
    func message() throws {
        let one = Self.message("From: \"Juice, the app\"\r\n <Hello@Juice.test>\r\n")
        #expect(try RelayFuzzingEntryPoints.mailboxes(inMessage: one).get() == ["hello@juice.test"])
        #expect(try RelayFuzzingEntryPoints.mailboxes(inMessage: one).get() == MailContent(parsing: one).from.get())
        let two = Self.message("From: hello@juice.test\r\nFrom: evil@evil.example\r\n")
        guard case .failure(let refusal) = RelayFuzzingEntryPoints.mailboxes(inMessage: two) else {
            Issue.record("two From headers were read")
            return
        }
        #expect(refusal.reason == "there are 2 From headers")
    }

    @Test("Limits are the parser's")
    func limits() {
        #expect(RelayFuzzingEntryPoints.limits.mailboxes == MailboxListParser.maximumMailboxes)
        #expect(RelayFuzzingEntryPoints.limits.octets == MailboxListParser.maximumLength)
    }
}
