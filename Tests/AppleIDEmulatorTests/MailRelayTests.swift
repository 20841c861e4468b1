import AppleIDEmulator
import AppleSignIn
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Synchronization
import Testing

/// SMTP conversations against the emulator's private email relay, with Python as the client
/// (one at a time: each starts an emulator and Python processes, on a machine shared with other tests).
@Suite("Private email relay (SMTP)", .serialized)
struct MailRelayTests {
    /// Team A registers the domain `example.com` and the single address `news@example.net`; team B
    /// registers `teamb.example`.
    static func configuration() -> EmulatorConfiguration {
        var configuration = Fixture.configuration()
        configuration.apps[0].emailSources = ["example.com", "news@example.net"]
        configuration.apps[1].emailSources = ["teamb.example"]
        return configuration
    }

    /// A generous idle timeout: a loaded machine must not time out a client between two commands.
    static let smtp = SMTPOptions(port: 0, maximumMessageSize: 4096, idleTimeout: .seconds(20), dailyLimitPerAddress: 5)

    /// Runs `body` with a relay and Alice's relay address for team A.
    static func withRelay(
        dataDirectory: URL? = nil, smtp: SMTPOptions = smtp, _ body: @Sendable (RunningEmulator, Int, String) async throws -> Void
    ) async throws {
        try await RunningEmulator.with(configuration: configuration(), dataDirectory: dataDirectory, smtp: smtp) { emulator in
            let page = try await WebFlow.signIn(emulator, emailChoice: "hide")
            let relay = try #require(try await emulator.verifier().verify(WebFlow.hiddenInputs(page.body)["id_token"]!).email)
            try await body(emulator, try #require(emulator.smtpPort), relay)
        }
    }

    static func message(from: String, to: String, subject: String = "Hello", body: String = "Hi there.") -> String {
        "From: Sender <\(from)>\r\nTo: \(to)\r\nSubject: \(subject)\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\(body)\r\n"
    }

    static func inbox(_ emulator: RunningEmulator, appleID: String = Fixture.alice.email) async throws -> [[String: Any]] {
        let result = try await emulator.http.get(
            "/emulator/admin/mail?apple_id=\(appleID)", headers: [("Authorization", "Bearer \(Fixture.adminToken)")])
        #expect(result.status == 200)
        return result.json?["messages"] as? [[String: Any]] ?? []
    }

    static func refused(_ emulator: RunningEmulator) async throws -> [[String: Any]] {
        let result = try await emulator.http.get("/emulator/admin/mail/refused", headers: [("Authorization", "Bearer \(Fixture.adminToken)")])
        #expect(result.status == 200)
        return result.json?["refused"] as? [[String: Any]] ?? []
    }

    @Test("smtplib delivers from a registered domain; the inbox lists it and shows the whole message")
    func registeredDomain() async throws {
        try await Self.withRelay { emulator, port, relay in
            let body = "Grüße!\r\n.a line that starts with a dot"
            let sent = try await SMTPTalk.sendmail(
                port: port, from: "hello@example.com", to: [relay],
                message: Self.message(from: "hello@example.com", to: relay, subject: "=?utf-8?B?V2VsY29tZSDwn42K?=", body: body))
            #expect(sent["ok"] as? Bool == true, "\(sent)")
            #expect((sent["features"] as? [String: Bool]) == ["size": true, "8bitmime": true])
            let messages = try await Self.inbox(emulator)
            #expect(messages.count == 1)
            let listed = try #require(messages.first)
            #expect(listed["from"] as? String == "hello@example.com")
            #expect(listed["to"] as? String == relay)
            #expect(listed["delivered_to"] as? String == Fixture.alice.email)
            #expect(listed["subject"] as? String == "Welcome 🍊")
            #expect((listed["size"] as? Int ?? 0) > 0)
            #expect(listed["received_at"] is Int)
            let id = try #require(listed["id"] as? String)
            let whole = try await emulator.http.get("/emulator/admin/mail/\(id)", headers: [("Authorization", "Bearer \(Fixture.adminToken)")])
            #expect(whole.status == 200)
            #expect(whole.json?["body"] as? String == "Grüße!\r\n.a line that starts with a dot\r\n")
            #expect(whole.json?["envelope_from"] as? String == "hello@example.com")
            // One object: the listed fields and the rest.
            #expect(whole.json?["subject"] as? String == "Welcome 🍊")
            #expect(whole.json?["to"] as? String == relay)
            #expect(whole.json?["apple_id"] as? String == Fixture.alice.email.lowercased())
            let missing = try await emulator.http.get("/emulator/admin/mail/000000", headers: [("Authorization", "Bearer \(Fixture.adminToken)")])
            #expect(missing.status == 404)
            // The admin token rule of the other admin endpoints.
            #expect(try await emulator.http.get("/emulator/admin/mail?apple_id=\(Fixture.alice.email)").status == 401)
            #expect(try await emulator.http.get("/emulator/admin/mail/\(id)").status == 401)
            #expect(try await emulator.http.get("/emulator/admin/mail/refused").status == 401)
        }
    }

    @Test("A registered address may send; another address at its domain may not")
    func registeredAddress() async throws {
        try await Self.withRelay { emulator, port, relay in
            let sent = try await SMTPTalk.sendmail(
                port: port, from: "news@example.net", to: [relay], message: Self.message(from: "news@example.net", to: relay))
            #expect(sent["ok"] as? Bool == true, "\(sent)")
            let other = try await SMTPTalk.sendmail(
                port: port, from: "other@example.net", to: [relay], message: Self.message(from: "other@example.net", to: relay))
            #expect(other["ok"] as? Bool == false)
            #expect(other["code"] as? Int == 550)
            #expect((other["text"] as? String)?.contains("5.7.1") == true)
            #expect((other["text"] as? String)?.contains("MAIL FROM <other@example.net>") == true)
            #expect(try await Self.inbox(emulator).count == 1)
            let refusals = try await Self.refused(emulator)
            #expect(refusals.first?["reason"] as? String == "envelope sender not registered")
            #expect(refusals.first?["recipient"] as? String == relay)
        }
    }

    @Test("Unregistered senders, another team's sender and a subdomain are refused with 550 5.7.1")
    func unregisteredSenders() async throws {
        try await Self.withRelay { emulator, port, relay in
            for sender in ["someone@unregistered.test", "ceo@teamb.example", "x@mail.example.com", ""] {
                let transcript = try await SMTPTalk.converse(
                    port: port, [.command("EHLO client.test"), .command("MAIL FROM:<\(sender)>"), .command("RCPT TO:<\(relay)>")])
                #expect(transcript[2].code == 250)
                #expect(transcript[3].code == 550, "\(sender): \(transcript[3])")
                #expect(transcript[3].text.hasPrefix("5.7.1"))
                #expect(transcript[3].text.contains("team \(Fixture.teamA.teamID)"))
            }
            #expect(try await Self.inbox(emulator).isEmpty)
            #expect(try await Self.refused(emulator).count == 4)
        }
    }

    @Test("A header From that does not align with a registered source is refused after DATA; nothing is stored")
    func misalignedFrom() async throws {
        try await Self.withRelay { emulator, port, relay in
            let sent = try await SMTPTalk.sendmail(
                port: port, from: "hello@example.com", to: [relay], message: Self.message(from: "boss@phishing.test", to: relay))
            #expect(sent["ok"] as? Bool == false)
            #expect(sent["code"] as? Int == 550)
            #expect((sent["text"] as? String)?.contains("header From <boss@phishing.test>") == true)
            let noFrom = try await SMTPTalk.sendmail(port: port, from: "hello@example.com", to: [relay], message: "Subject: x\r\n\r\nbody\r\n")
            #expect(noFrom["code"] as? Int == 550)
            #expect(try await Self.inbox(emulator).isEmpty)
            #expect(try await Self.refused(emulator).first?["reason"] as? String == "header From unreadable")
        }
    }

    @Test("An address the relay never issued gets 550 5.1.1")
    func unknownRelayAddress() async throws {
        try await Self.withRelay { emulator, port, _ in
            let transcript = try await SMTPTalk.converse(
                port: port,
                [
                    .command("HELO client.test"), .command("MAIL FROM:<hello@example.com>"),
                    .command("RCPT TO:<nobody123@privaterelay.appleid.com>"), .command("RCPT TO:<alice@example.org>"), .command("DATA"),
                ])
            #expect(transcript[3].code == 550)
            #expect(transcript[3].text.hasPrefix("5.1.1"))
            #expect(transcript[4].code == 550)
            #expect(transcript[5].code == 554)
            #expect(try await Self.refused(emulator).first?["reason"] as? String == "unknown relay address")
        }
    }

    @Test("With forwarding off nothing is delivered (550); turned on again, mail arrives")
    func forwardingOff() async throws {
        try await Self.withRelay { emulator, port, relay in
            let off = try await emulator.admin.postJSON(
                "/emulator/admin/set-email-forwarding", ["apple_id": Fixture.alice.email, "team_id": Fixture.teamA.teamID, "enabled": false])
            #expect(off.status == 200)
            let refused = try await SMTPTalk.sendmail(
                port: port, from: "hello@example.com", to: [relay], message: Self.message(from: "hello@example.com", to: relay))
            #expect(refused["code"] as? Int == 550)
            #expect((refused["text"] as? String)?.contains("forwarding off") == true)
            #expect(try await Self.inbox(emulator).isEmpty)
            _ = try await emulator.admin.postJSON(
                "/emulator/admin/set-email-forwarding", ["apple_id": Fixture.alice.email, "team_id": Fixture.teamA.teamID, "enabled": true])
            let sent = try await SMTPTalk.sendmail(
                port: port, from: "hello@example.com", to: [relay], message: Self.message(from: "hello@example.com", to: relay))
            #expect(sent["ok"] as? Bool == true)
            #expect(try await Self.inbox(emulator).count == 1)
        }
    }

    @Test("Oversized messages get 552 (declared by SIZE or sent anyway) and nothing is half-stored; long lines get 500")
    func oversized() async throws {
        try await Self.withRelay { emulator, port, relay in
            let big = String(repeating: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\r\n", count: 80)
            let transcript = try await SMTPTalk.converse(
                port: port,
                [
                    .command("EHLO client.test"), .command("MAIL FROM:<hello@example.com> SIZE=999999"),
                    .command("MAIL FROM:<hello@example.com> SIZE=100"), .command("RCPT TO:<\(relay)>"), .command("DATA"),
                    .message(Self.message(from: "hello@example.com", to: relay) + big),
                    .command("MAIL FROM:<hello@example.com>"), .command("RCPT TO:<\(relay)>"), .command("DATA"),
                    .message(Self.message(from: "hello@example.com", to: relay) + String(repeating: "x", count: 1200)),
                    .command("NOOP"),
                ])
            #expect(transcript[1].text.contains("SIZE 4096"))
            #expect(transcript[2].code == 552)
            #expect(transcript[3].code == 250)
            #expect(transcript[5].code == 354)
            #expect(transcript[6].code == 552)
            #expect(transcript[6].text.hasPrefix("5.3.4"))
            #expect(transcript[10].code == 500)
            #expect(transcript[11].code == 250)
            #expect(try await Self.inbox(emulator).isEmpty)
            #expect(try await Self.refused(emulator).first?["reason"] as? String == "line too long")
        }
    }

    @Test("Malformed commands get 500/501/503 and the connection stays usable")
    func malformedCommands() async throws {
        try await Self.withRelay { emulator, port, relay in
            let transcript = try await SMTPTalk.converse(
                port: port,
                [
                    .command("MAIL FROM:<hello@example.com>"), .command("EHLO"), .command("FROB nicate"), .command(""),
                    .command("EHLO client.test"), .command("RCPT TO:<\(relay)>"), .command("MAIL FROM:hello@example.com"),
                    .command("MAIL FROM:<not an address>"), .command("MAIL FROM:<hello@example.com> COLOR=blue"),
                    .command(String(repeating: "A", count: 2000)), .command("DATA now"), .command("VRFY alice"),
                    .command("MAIL FROM:<hello@example.com>"), .command("MAIL FROM:<hello@example.com>"), .command("RSET"),
                    .command("MAIL FROM:<hello@example.com>"), .command("RCPT TO:<\(relay)>"), .command("DATA"),
                    .message(Self.message(from: "hello@example.com", to: relay)), .command("QUIT"),
                ])
            let codes = transcript.replies.map(\.code)
            #expect(
                codes == [220, 503, 501, 500, 500, 250, 503, 501, 501, 555, 500, 501, 502, 250, 503, 250, 250, 250, 354, 250, 221],
                "\(transcript.replies)")
            #expect(transcript.closed)
            #expect(try await Self.inbox(emulator).count == 1)
        }
    }

    @Test("A client that vanishes mid-DATA stores nothing; an idle client is told 421 and disconnected")
    func vanishingAndIdleClients() async throws {
        // The vanishing client talks to a relay with the usual idle timeout: on a loaded machine a
        // Python client has paused more than two seconds between two commands, and was cut off.
        try await Self.withRelay { emulator, port, relay in
            let vanished = try await SMTPTalk.converse(
                port: port,
                [
                    .command("EHLO client.test"), .command("MAIL FROM:<hello@example.com>"), .command("RCPT TO:<\(relay)>"), .command("DATA"),
                    .raw(Self.message(from: "hello@example.com", to: relay)), .vanish,
                ])
            #expect(vanished[4].code == 354)
            #expect(try await Self.inbox(emulator).isEmpty)
        }
        var shortIdle = Self.smtp
        shortIdle.idleTimeout = .seconds(5)
        try await Self.withRelay(smtp: shortIdle) { emulator, port, relay in
            let idle = try await SMTPTalk.converse(port: port, [.command("EHLO client.test"), .await(15)])
            #expect(idle[2].code == 421)
            #expect(idle[2].text.hasPrefix("4.4.2"))
            #expect(idle.closed)
            #expect(try await Self.inbox(emulator).isEmpty)
        }
    }

    @Test("A relay address takes at most its daily limit of messages (450 after that); a day later it takes mail again")
    func dailyLimit() async throws {
        try await Self.withRelay { emulator, port, relay in
            for index in 0..<5 {
                let sent = try await SMTPTalk.sendmail(
                    port: port, from: "hello@example.com", to: [relay],
                    message: Self.message(from: "hello@example.com", to: relay, subject: "\(index)"))
                #expect(sent["ok"] as? Bool == true)
            }
            let over = try await SMTPTalk.sendmail(
                port: port, from: "hello@example.com", to: [relay], message: Self.message(from: "hello@example.com", to: relay))
            #expect(over["code"] as? Int == 450, "\(over)")
            #expect((over["text"] as? String)?.hasPrefix("4.2.1") == true)
            emulator.clock.advance(by: 86_401)
            let later = try await SMTPTalk.sendmail(
                port: port, from: "hello@example.com", to: [relay], message: Self.message(from: "hello@example.com", to: relay))
            #expect(later["ok"] as? Bool == true)
            #expect(try await Self.inbox(emulator).count == 6)
        }
    }

    @Test("Several clients at once are all served")
    func concurrentClients() async throws {
        try await Self.withRelay { emulator, port, relay in
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<3 {
                    group.addTask {
                        let sent = try await SMTPTalk.sendmail(
                            port: port, from: "hello@example.com", to: [relay],
                            message: Self.message(from: "hello@example.com", to: relay, subject: "Mail \(index)"))
                        return sent["ok"] as? Bool == true
                    }
                }
                for try await ok in group { #expect(ok) }
            }
            #expect(try await Self.inbox(emulator).count == 3)
        }
    }

    @Test("The inbox survives a restart; the portal lists the mail and shows a message (HTML as escaped text), in English and Chinese")
    func restartAndPortal() async throws {
        let temporary = try TemporaryDirectory("emulator-tests")
        defer { temporary.remove() }
        let directory = temporary.url
        let relay = SendableBox<String>()
        try await Self.withRelay(dataDirectory: directory) { _, port, address in
            relay.value = address
            let html =
                "From: News <news@example.net>\r\nTo: \(address)\r\nSubject: Offers\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<b>50% off</b><script>alert(1)</script>\r\n"
            let sent = try await SMTPTalk.sendmail(port: port, from: "news@example.net", to: [address], message: html)
            #expect(sent["ok"] as? Bool == true)
        }
        try await RunningEmulator.with(configuration: Self.configuration(), dataDirectory: directory, smtp: Self.smtp) { emulator in
            let messages = try await Self.inbox(emulator)
            #expect(messages.count == 1)
            #expect(messages.first?["to"] as? String == relay.value)
            let (cookie, page) = try await AccountPortalTests.signIn(emulator)
            #expect(page.body.contains("Mail Forwarded by Hide My Email"))
            #expect(page.body.contains("Offers"))
            let id = try #require(messages.first?["id"] as? String)
            #expect(page.body.contains("/account/mail/\(id)"))
            let view = try await emulator.http.get("/account/mail/\(id)", headers: [("Cookie", cookie)])
            #expect(view.status == 200)
            #expect(view.body.contains("&lt;b&gt;50% off&lt;/b&gt;&lt;script&gt;"))
            #expect(!view.body.contains("<script>alert"))
            #expect(view.body.contains("shown as text"))
            let chinese = try await emulator.http.get("/account/mail/\(id)", headers: [("Cookie", cookie), ("Accept-Language", "zh-Hans")])
            #expect(chinese.body.contains("发件人"))
            // Bob cannot read Alice's mail.
            let (bobCookie, _) = try await AccountPortalTests.signIn(emulator, account: Fixture.bob)
            #expect(try await emulator.http.get("/account/mail/\(id)", headers: [("Cookie", bobCookie)]).status == 404)
        }
    }
}

/// A value written by one closure and read after it.
final class SendableBox<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)

    var value: Value? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
