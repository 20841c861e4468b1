import AppleIDEmulator
import Foundation
import Testing

/// The relay's header-From check against senders that hide a foreign mailbox from a naive reading
/// (finding 7 of the second security review), over real SMTP: each is refused with 550 5.7.1 and
/// nothing reaches the inbox; honest senders with display names, comments and groups still deliver.
@Suite("Private email relay: the From header as RFC 5322 reads it", .serialized)
struct RelayFromHeaderTests {
    static func message(fromHeaders: [String], to: String) -> String {
        fromHeaders.map { "From: \($0)\r\n" }.joined() + "To: \(to)\r\nSubject: Hello\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHi.\r\n"
    }

    @Test(
        "A foreign mailbox beside, behind a comment, or in a second From header is refused; nothing is stored",
        arguments: [
            ["Evil <evil@evil.example>, <hello@example.com>"],
            ["evil@evil.example (<hello@example.com>)"],
            ["Hello <hello@example.com>", "Evil <evil@evil.example>"],
            ["Partners: hello@example.com, evil@evil.example;"],
            ["\"<hello@example.com>\" <evil@evil.example>"],
            ["Hello <hello@example.com> <evil@evil.example>"],
        ])
    func disguisedForeignSender(fromHeaders: [String]) async throws {
        try await MailRelayTests.withRelay { emulator, port, relay in
            let sent = try await SMTPTalk.sendmail(
                port: port, from: "hello@example.com", to: [relay], message: Self.message(fromHeaders: fromHeaders, to: relay))
            #expect(sent["ok"] as? Bool == false, "\(fromHeaders) was delivered")
            #expect(sent["code"] as? Int == 550)
            #expect((sent["text"] as? String)?.hasPrefix("5.7.1") == true, "\(sent)")
            #expect(try await MailRelayTests.inbox(emulator).isEmpty)
            #expect(try await MailRelayTests.refused(emulator).isEmpty == false)
        }
    }

    @Test("Registered senders written with quoted names, comments, folding and groups are delivered")
    func honestForms() async throws {
        let forms = [
            "\"Example, Inc.\" <hello@example.com>",
            "hello@example.com (Example)",
            "Example\r\n <news@example.net>",
            "Example: hello@example.com, News <news@example.net>;",
        ]
        try await MailRelayTests.withRelay { emulator, port, relay in
            for form in forms {
                let sent = try await SMTPTalk.sendmail(
                    port: port, from: "hello@example.com", to: [relay], message: Self.message(fromHeaders: [form], to: relay))
                #expect(sent["ok"] as? Bool == true, "\(form): \(sent)")
            }
            #expect(try await MailRelayTests.inbox(emulator).count == forms.count)
        }
    }
}
