import AppleIDEmulator
import Foundation
import Testing

/// The relay cannot be held or used as a recipient oracle (findings 8 and 9 of the second security
/// review), over real SMTP on loopback with short limits: one client address cannot take every
/// connection, a client that trickles a line or overstays is told 421 and closed, and a session that
/// guesses recipients is ended after a few refusals.
@Suite("Private email relay: connection, pace and recipient limits", .serialized)
struct RelayLimitsTests {
    static func options(
        perAddress: Int = 8, sessionTimeout: Duration = .seconds(600), minimumDataRate: Int = 32, window: Duration = .seconds(10),
        refusedRecipients: Int = 10
    ) -> SMTPOptions {
        SMTPOptions(
            port: 0, maximumMessageSize: 4096, idleTimeout: .seconds(20), maximumConnections: 16, maximumConnectionsPerAddress: perAddress,
            sessionTimeout: sessionTimeout, minimumDataRate: minimumDataRate, dataRateWindow: window, maximumRefusedRecipients: refusedRecipients,
            dailyLimitPerAddress: 5)
    }

    /// Holds `hold` silent connections from 127.0.0.1, then opens one more from 127.0.0.1 and one from
    /// 127.0.0.2, and prints the first reply line each got.
    static let holdScript = #"""
        import json, socket, sys
        request = json.load(sys.stdin)
        port, hold = request["port"], request["hold"]
        def greeting(source):
            sock = socket.create_connection(("127.0.0.1", port), timeout=15, source_address=(source, 0))
            sock.settimeout(15)
            line = sock.makefile("rb").readline().decode("utf-8", "replace").strip()
            return sock, line
        held = [greeting("127.0.0.1") for _ in range(hold)]
        extra, extra_line = greeting("127.0.0.1")
        other, other_line = greeting("127.0.0.2")
        print(json.dumps({"held": [line for _, line in held], "extra": extra_line, "other": other_line}))
        """#

    @Test("Silent connections from one address fill only that address's share: the next one gets 421, another address is served")
    func perAddressLimit() async throws {
        try await MailRelayTests.withRelay(smtp: Self.options(perAddress: 3)) { _, port, _ in
            let result = try await SMTPTalk.python(Self.holdScript, ["port": port, "hold": 3])
            let held = result["held"] as? [String] ?? []
            #expect(held.count == 3 && held.allSatisfy { $0.hasPrefix("220 ") }, "\(held)")
            let extra = result["extra"] as? String ?? ""
            #expect(extra.hasPrefix("421 4.7.0") && extra.contains("from your address"), "\(extra)")
            #expect((result["other"] as? String ?? "").hasPrefix("220 "), "\(result)")
        }
    }

    @Test("A client that begins a line and sends slower than the minimum rate is told 421 and closed, long before the idle timeout")
    func trickle() async throws {
        try await MailRelayTests.withRelay(smtp: Self.options(minimumDataRate: 16, window: .milliseconds(500))) { _, port, _ in
            let transcript = try await SMTPTalk.converse(port: port, [.command("EHLO python.test"), .raw("N"), .await(8)])
            #expect(transcript[2].code == 421, "\(transcript.replies)")
            #expect(transcript[2].text.contains("slower than 16 octets a second"))
            #expect(transcript.closed)
        }
    }

    @Test("A client that sends whole lines is not measured by the data rate")
    func wholeLinesAreFine() async throws {
        try await MailRelayTests.withRelay(smtp: Self.options(minimumDataRate: 1000, window: .milliseconds(200))) { _, port, _ in
            let transcript = try await SMTPTalk.converse(
                port: port, [.command("EHLO python.test"), .pause(1), .command("NOOP"), .pause(1), .command("QUIT")])
            #expect(transcript.replies.map(\.code) == [220, 250, 250, 221], "\(transcript.replies)")
        }
    }

    @Test("A conversation that outlasts the session deadline is told 421 and closed, though it is not idle for long")
    func sessionDeadline() async throws {
        try await MailRelayTests.withRelay(smtp: Self.options(sessionTimeout: .seconds(2))) { _, port, _ in
            let transcript = try await SMTPTalk.converse(port: port, [.command("EHLO python.test"), .command("NOOP"), .await(10)])
            #expect(transcript[3].code == 421, "\(transcript.replies)")
            #expect(transcript[3].text.contains("lasted longer than the relay allows"))
            #expect(transcript.closed)
        }
    }

    @Test("After the limit of refused RCPT in one session the relay answers 421 and closes; the refusal log holds only those")
    func refusedRecipients() async throws {
        try await MailRelayTests.withRelay(smtp: Self.options(refusedRecipients: 3)) { emulator, port, _ in
            let guesses = (1...3).map { SMTPTalk.Step.command("RCPT TO:<guess\($0)@private.icloud.com>") }
            let transcript = try await SMTPTalk.converse(
                port: port, [.command("EHLO python.test"), .command("MAIL FROM:<hello@example.com>")] + guesses + [.await(5)])
            #expect(transcript.replies.map(\.code) == [220, 250, 250, 550, 550, 550, 421], "\(transcript.replies)")
            #expect(transcript.closed)
            #expect(try await MailRelayTests.refused(emulator).count == 3)
        }
    }

    @Test("Refused messages count against the same limit, so one session writes at most that many rows to the refusal log")
    func refusedMessages() async throws {
        try await MailRelayTests.withRelay(smtp: Self.options(refusedRecipients: 3)) { emulator, port, relay in
            let before = try await MailRelayTests.refused(emulator).count
            let foreign = RelayFromHeaderTests.message(fromHeaders: ["Evil <evil@evil.example>"], to: relay)
            let round: [SMTPTalk.Step] = [
                .command("MAIL FROM:<hello@example.com>"), .command("RCPT TO:<\(relay)>"), .command("DATA"), .message(foreign),
            ]
            let transcript = try await SMTPTalk.converse(
                port: port, [.command("EHLO python.test")] + round + round + round + [.await(5)])
            let refusedRound: [Int] = [250, 250, 354, 550]
            let expected: [Int] = [220, 250] + refusedRound + refusedRound + refusedRound + [421]
            #expect(transcript.replies.map(\.code) == expected, "\(transcript.replies)")
            #expect(transcript.closed)
            #expect(try await MailRelayTests.refused(emulator).count - before == 3)
        }
    }
}
