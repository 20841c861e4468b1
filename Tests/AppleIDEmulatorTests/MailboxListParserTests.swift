import Testing

@testable import AppleIDEmulator

/// The RFC 5322 reading of a `From` value, on its own: every mailbox is found (so none can hide from the
/// relay's source check), and what cannot be read whole is refused.
@Suite("Mailbox lists (RFC 5322 From)")
struct MailboxListParserTests {
    static func addresses(_ value: String) -> [String]? {
        try? MailboxListParser.addresses(in: value)
    }

    @Test(
        "Ordinary From values name their one mailbox",
        arguments: [
            ("hello@juice.test", "hello@juice.test"),
            ("Juice <hello@juice.test>", "hello@juice.test"),
            ("\"Juice, the app\" <Hello@Juice.test>", "hello@juice.test"),
            ("\"A \\\"quoted\\\" name\" <hello@juice.test>", "hello@juice.test"),
            ("J. Smith <j.smith@juice.test>", "j.smith@juice.test"),
            ("=?utf-8?B?SnVpY2Ug8J+Niw==?= <hello@juice.test>", "hello@juice.test"),
            ("hello@juice.test (Juice (the app))", "hello@juice.test"),
            ("(comment) Juice (more) <hello@juice.test> (trailing)", "hello@juice.test"),
            ("Juice\r\n <hello@juice.test>", "hello@juice.test"),
            ("Grüße <hello@juice.test>", "hello@juice.test"),
        ])
    func ordinary(value: String, expected: String) {
        #expect(Self.addresses(value) == [expected])
    }

    @Test("Every mailbox of a list, a group and a comment-disguised address is found, in order")
    func lists() {
        #expect(Self.addresses("Evil <evil@evil.example>, <hello@juice.test>") == ["evil@evil.example", "hello@juice.test"])
        #expect(Self.addresses("evil@evil.example (<hello@juice.test>)") == ["evil@evil.example"])
        #expect(Self.addresses("Team: a@juice.test, B <b@juice.test>;, c@juice.test") == ["a@juice.test", "b@juice.test", "c@juice.test"])
        #expect(Self.addresses(", hello@juice.test,,") == ["hello@juice.test"])
        #expect(Self.addresses("\"<hello@juice.test>\" <evil@evil.example>") == ["evil@evil.example"])
    }

    @Test(
        "What cannot be read whole is refused",
        arguments: [
            "", "   ", "(only a comment)", "undisclosed-recipients:;", "Juice", "Juice <hello@juice.test", "<hello@juice.test",
            "hello@juice.test>", "Juice <>", "<@route.example:hello@juice.test>", "hello@", "@juice.test", "hello@@juice.test",
            "hello@juice.test hello@evil.example", "Juice <hello@juice.test> <evil@evil.example>", "\"unclosed <hello@juice.test>",
            "(unclosed hello@juice.test", "a..b@juice.test", ".a@juice.test", "hello@juice..test", "Team: a@juice.test",
            "Outer: Inner: a@juice.test;;", "hello@juice.test;", "hello\u{01}@juice.test", "Juice <hello@juice.test>: x",
            "\"quoted local\"@juice.test",
        ])
    func refused(value: String) {
        #expect(Self.addresses(value) == nil, "\(value.debugDescription)")
    }

    @Test("Bounds: the length, the number of mailboxes and the nesting of comments are limited")
    func bounds() {
        let many = (0...MailboxListParser.maximumMailboxes).map { "u\($0)@juice.test" }.joined(separator: ", ")
        #expect(Self.addresses(many) == nil)
        let enough = (1...MailboxListParser.maximumMailboxes).map { "u\($0)@juice.test" }.joined(separator: ", ")
        #expect(Self.addresses(enough)?.count == MailboxListParser.maximumMailboxes)
        let deep = String(repeating: "(", count: 17) + String(repeating: ")", count: 17) + " hello@juice.test"
        #expect(Self.addresses(deep) == nil)
        let shallow = String(repeating: "(", count: 16) + String(repeating: ")", count: 16) + " hello@juice.test"
        #expect(Self.addresses(shallow) == ["hello@juice.test"])
        #expect(Self.addresses(String(repeating: " ", count: MailboxListParser.maximumLength) + "hello@juice.test") == nil)
    }

    @Test("Several From headers, or none, give no mailboxes the relay can trust")
    func headerCount() throws {
        let two = MailContent(parsing: Array("From: hello@juice.test\r\nFrom: evil@evil.example\r\nSubject: x\r\n\r\nbody\r\n".utf8))
        #expect(throws: MailboxListParser.Failure.self) { try two.from.get() }
        let none = MailContent(parsing: Array("Subject: x\r\n\r\nbody\r\n".utf8))
        #expect(throws: MailboxListParser.Failure.self) { try none.from.get() }
        let one = MailContent(parsing: Array("from: Juice <hello@juice.test>\r\nSubject: x\r\n\r\nbody\r\n".utf8))
        #expect(try one.from.get() == ["hello@juice.test"])
    }
}
