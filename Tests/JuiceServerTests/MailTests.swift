import AppleIDEmulator
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Logging
import SQLKit
import Testing

@testable import JuiceServer

/// Juice's mail to its users: queued with the change it reports, sent through the emulator's private
/// email relay by the delivery pass, on SQLite and PostgreSQL.
@Suite("Mail: welcome and deletion mails through the private email relay")
struct MailTests {
    static let logger: Logger = {
        var logger = Logger(label: "mail-test")
        logger.logLevel = .warning
        return logger
    }()

    /// Runs one delivery pass as the server's service would, counting into `metrics`.
    static func deliver(
        _ stack: JuiceStack, metrics: ServerMetrics = ServerMetrics(), settings: MailSettings? = nil
    ) async throws
        -> [MailDelivery.Outcome]
    {
        let port = try #require(stack.smtpPort)
        return try await stack.withDatabase { database in
            var mail = settings ?? MailSettings(smtpHost: "127.0.0.1", smtpPort: port, sender: MailSender(parsing: StackEnvironment.mailFrom)!)
            // A bound, not a speed: two test runs at once on two cores have taken more than 10 s to relay one message.
            mail.timeout = .seconds(60)
            return try await MailDelivery(database: database, settings: mail, heloName: "juice.test", time: stack.clock.timeSource, metrics: metrics)
                .deliverDue(logger: logger)
        }
    }

    static func outbox(_ stack: JuiceStack) async throws -> [(kind: String, status: String, recipient: String, error: String?)] {
        try await stack.withDatabase { database in
            try await database.read { sql in
                try await sql.select().columns("kind", "status", "recipient", "last_error").from("mail_outbox").orderBy("created_at").all().map {
                    (
                        try $0.decode(column: "kind", as: String.self), try $0.decode(column: "status", as: String.self),
                        try $0.decode(column: "recipient", as: String.self), try $0.decode(column: "last_error", as: String?.self)
                    )
                }
            }
        }
    }

    static func inbox(_ stack: JuiceStack, appleID: String = StackEnvironment.johnny.email) async throws -> [[String: Any]] {
        let answer = try await Browser().get(stack.emulatorURL + "/emulator/admin/mail?apple_id=\(appleID)")
        #expect(answer.status == 200)
        return answer.json?["messages"] as? [[String: Any]] ?? []
    }

    @Test("A web sign-in with Hide My Email queues a welcome; it reaches the Apple ID's inbox through the relay; a returning sign-in sends none")
    func welcomeThroughRelay() async throws {
        try await JuiceStack.with { stack in
            let browser = Browser()
            #expect(try await AppleFlow.signIn(stack, browser, emailChoice: "hide").status == 303)
            let queued = try await Self.outbox(stack)
            #expect(queued.map(\.kind) == ["welcome"])
            #expect(queued.first?.recipient.hasSuffix("@private.icloud.com") == true)
            #expect(try await Self.inbox(stack).isEmpty, "nothing is sent inside the sign-in request")

            let metrics = ServerMetrics()
            #expect(try await Self.deliver(stack, metrics: metrics) == [.sent])
            #expect(metrics.render().contains(#"juice_mail_total{outcome="sent"} 1"#))
            let messages = try await Self.inbox(stack)
            #expect(messages.count == 1)
            let message = try #require(messages.first)
            #expect(message["subject"] as? String == "Welcome to Juice")
            #expect(message["from"] as? String == "hello@juice.test")
            #expect(message["to"] as? String == queued.first?.recipient)
            #expect(message["delivered_to"] as? String == StackEnvironment.johnny.email)
            let whole = try await Browser().get(stack.emulatorURL + "/emulator/admin/mail/\(try #require(message["id"] as? String))")
            let body = try #require(whole.json?["body"] as? String)
            #expect(body.contains("Hello Johnny,"))
            #expect(body.contains("Hide My Email"))
            #expect(body.contains(stack.serverURL))
            #expect(try await Self.outbox(stack).map(\.status) == ["sent"])

            // Signing in again (a new browser) is not a new account: no second welcome.
            #expect(try await AppleFlow.signIn(stack, Browser(), emailChoice: "hide").status == 303)
            #expect(try await Self.deliver(stack) == [])
            #expect(try await Self.outbox(stack).count == 1)
        }
    }

    @Test("Mail to a shared (not relayed) address is refused by the relay with 5.1.1: recorded, counted, never retried")
    func refusedPermanently() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            #expect(try await AppleFlow.signIn(stack, Browser(), emailChoice: "share").status == 303)
            let metrics = ServerMetrics()
            #expect(try await Self.deliver(stack, metrics: metrics) == [.refused])
            let entry = try #require(try await Self.outbox(stack).first)
            #expect(entry.recipient == StackEnvironment.johnny.email)
            #expect(entry.status == "refused")
            #expect(entry.error?.contains("5.1.1") == true)
            #expect(metrics.render().contains(#"juice_mail_total{outcome="refused"} 1"#))
            stack.clock.advance(by: 7200)
            #expect(try await Self.deliver(stack) == [])
        }
    }

    @Test("email-disabled stops mail to that Apple ID; after email-enabled the deletion confirmation arrives")
    func emailDisabledStopsMail() async throws {
        try await JuiceStack.with { stack in
            let (token, _, credential) = try await NativeFlow.signIn(stack, emailChoice: "hide")
            let change: [String: Any] = ["apple_id": StackEnvironment.johnny.email, "team_id": StackEnvironment.teamID, "enabled": false]
            try await stack.admin("set-email-forwarding", change)
            #expect(try await NativeFlow.eventually { try await NotificationTests.identity(stack, subject: credential.user)?.forwarding == 0 })
            #expect(try await Self.deliver(stack) == [.suppressed])
            #expect(try await Self.inbox(stack).isEmpty)
            #expect(try await Self.outbox(stack).map(\.status) == ["suppressed"])

            var enable = change
            enable["enabled"] = true
            try await stack.admin("set-email-forwarding", enable)
            #expect(try await NativeFlow.eventually { try await NotificationTests.identity(stack, subject: credential.user)?.forwarding == 1 })
            #expect(try await APIRequests.json(stack, "DELETE", "/api/account", bearer: token).status == 200)
            #expect(try await Self.outbox(stack).map(\.kind) == ["welcome", "account_deleted"])
            #expect(try await Self.deliver(stack) == [.sent])
            #expect(try await Self.inbox(stack).map { $0["subject"] as? String } == ["Your Juice account was deleted"])
        }
    }

    @Test("An unreachable SMTP server: retried with growing backoff, then given up; the sign-in itself succeeded at once")
    func retriedWithBackoff() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            #expect(try await AppleFlow.signIn(stack, Browser(), emailChoice: "hide").status == 303)
            var down = MailSettings(smtpHost: "127.0.0.1", smtpPort: try FreePort.pick(), sender: MailSender(parsing: StackEnvironment.mailFrom)!)
            down.maximumAttempts = 3
            down.initialBackoff = 30
            let metrics = ServerMetrics()
            #expect(try await Self.deliver(stack, metrics: metrics, settings: down) == [.retried])
            #expect(try await Self.deliver(stack, settings: down) == [], "not due before its backoff")
            stack.clock.advance(by: 31)
            #expect(try await Self.deliver(stack, metrics: metrics, settings: down) == [.retried])
            stack.clock.advance(by: 31)
            #expect(try await Self.deliver(stack, settings: down) == [], "the second wait is twice as long")
            stack.clock.advance(by: 30)
            #expect(try await Self.deliver(stack, metrics: metrics, settings: down) == [.failed])
            #expect(try await Self.outbox(stack).map(\.status) == ["failed"])
            #expect(metrics.render().contains(#"juice_mail_total{outcome="retried"} 2"#))
            #expect(try await Self.inbox(stack).isEmpty)
        }
    }

    @Test("A 4xx from the relay (its daily limit) is retried with backoff and delivered once the relay takes mail again")
    func deferredThenDelivered() async throws {
        try await StackEnvironment.with(.sqlite) { made in
            var environment = made
            environment.relayDailyLimit = 1
            let configured = environment
            try await JuiceStack.with(environment: configured) { stack in
                let (token, _, _) = try await NativeFlow.signIn(stack, emailChoice: "hide")
                #expect(try await Self.deliver(stack) == [.sent])
                #expect(try await APIRequests.json(stack, "DELETE", "/api/account", bearer: token).status == 200)
                let metrics = ServerMetrics()
                #expect(try await Self.deliver(stack, metrics: metrics) == [.retried])
                #expect(try await Self.outbox(stack).last?.error?.contains("450") == true)
                #expect(metrics.render().contains(#"juice_mail_total{outcome="retried"} 1"#))
                stack.clock.advance(by: 86_401)
                #expect(try await Self.deliver(stack) == [.sent])
                #expect(try await Self.inbox(stack).count == 2)
            }
        }
    }

    @Test("Composed mail: RFC 5322 headers, encoded non-ASCII subject and name, no header injection, quoted-printable body, dot-stuffing")
    func composition() throws {
        let composer = MailComposer(sender: try #require(MailSender(parsing: "Jüice Team <hello@juice.test>")))
        let text = String(
            decoding: composer.compose(
                to: "a@b.test\r\nBcc: victim@evil.test", subject: "Grüße\r\nBcc: victim@evil.test", body: ".hidden\nsecond line ünïcode =",
                date: Date(timeIntervalSince1970: 0), messageID: "abc"),
            as: UTF8.self)
        let headerBlock = try #require(text.components(separatedBy: "\r\n\r\n").first)
        #expect(!headerBlock.contains("\r\nBcc:"), "a CR/LF in a value never starts a header")
        #expect(headerBlock.contains("Date: Thu, 01 Jan 1970 00:00:00 +0000"))
        #expect(headerBlock.contains("From: =?utf-8?B?"))
        #expect(headerBlock.contains("<hello@juice.test>"))
        #expect(headerBlock.contains("Subject: =?utf-8?B?"))
        #expect(headerBlock.contains("Message-ID: <abc@juice.test>"))
        #expect(headerBlock.contains("MIME-Version: 1.0"))
        #expect(headerBlock.contains("Content-Type: text/plain; charset=utf-8"))
        #expect(headerBlock.contains("Content-Transfer-Encoding: quoted-printable"))
        #expect(text.contains("second line =C3=BCn=C3=AFcode =3D"))
        #expect(!text.contains("\n") || !text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "CRLF line endings only")
        let wire = String(decoding: SMTPClient.dotStuffed(Array(text.utf8)), as: UTF8.self)
        #expect(wire.contains("\r\n..hidden\r\n"))
        #expect(wire.hasSuffix("\r\n.\r\n"))
        #expect(MailSender(parsing: "Evil\r\nBcc: x <a@b.test>") == nil)
        #expect(MailSender(parsing: "not an address") == nil)
    }

    @Test("smtp_url and mail_from: parsed together, each problem named")
    func settings() throws {
        let settings = try MailSettings(smtpURL: "smtp://mail.example.com:2525", mailFrom: "Juice <hello@example.com>")
        #expect(settings.smtpHost == "mail.example.com")
        #expect(settings.smtpPort == 2525)
        #expect(settings.sender.address == "hello@example.com")
        #expect(try MailSettings(smtpURL: "smtp://mail.example.com", mailFrom: "hello@example.com").smtpPort == 25)
        #expect(throws: MailSettingsError.self) { try MailSettings(smtpURL: "http://mail.example.com", mailFrom: "hello@example.com") }
        #expect(throws: MailSettingsError.self) { try MailSettings(smtpURL: "smtp://user:pw@mail.example.com", mailFrom: "hello@example.com") }
        #expect(throws: MailSettingsError.self) { try MailSettings(smtpURL: "smtp://mail.example.com", mailFrom: "nobody") }
    }
}
