import AppleIDEmulator
import AppleSignIn
import Foundation
import JuiceTestSupport
import Testing

/// The relay domains: new addresses on `private.icloud.com` by default (or the configured domain), and
/// mail relayed to every address the emulator issued, on each of the three domains.
@Suite("Relay domains: private.icloud.com issued, all three relayed", .serialized)
struct RelayDomainTests {
    static let options = EmulatorOptions(outboxPollInterval: .milliseconds(20), outboxInitialBackoff: 2, outboxMaximumBackoff: 60)

    /// Signs `account` in with Hide My Email on an emulator issuing on `domain`; returns its relay address.
    static func relayAddress(
        _ domain: RelayDomain, account: EmulatorConfiguration.AppleID, dataDirectory: URL
    ) async throws -> String {
        var options = options
        options.relayDomain = domain
        return try await RunningEmulator.with(
            configuration: MailRelayTests.configuration(), dataDirectory: dataDirectory, options: options
        ) { emulator in
            let page = try await WebFlow.signIn(emulator, account: account, emailChoice: "hide")
            return try #require(try await emulator.verifier().verify(WebFlow.hiddenInputs(page.body)["id_token"]!).email)
        }
    }

    @Test("the default domain is private.icloud.com, the consent page shows it, and the token marks it private")
    func defaultDomain() async throws {
        try await RunningEmulator.with { emulator in
            let consent = try await WebFlow.signIn(emulator, action: "review")
            #expect(consent.body.contains("@private.icloud.com"))
            let page = try await WebFlow.signIn(emulator, emailChoice: "hide")
            let token = try await emulator.verifier().verify(WebFlow.hiddenInputs(page.body)["id_token"]!)
            #expect(token.email?.hasSuffix("@private.icloud.com") == true)
            #expect(token.isPrivateEmail == true)
        }
    }

    @Test("addresses issued on each of the three domains keep their domain across restarts and all receive mail")
    func allThreeRelayed() async throws {
        try await TemporaryDirectory.with("relay-domains") { directory in
            // Alice got an old-domain address before the switch; Bob an icloud.com one; a third sign-in
            // (Alice at team B) on the default domain.
            let legacy = try await Self.relayAddress(.privateRelay, account: Fixture.alice, dataDirectory: directory.url)
            let iCloud = try await Self.relayAddress(.iCloud, account: Fixture.bob, dataDirectory: directory.url)
            #expect(legacy.hasSuffix("@privaterelay.appleid.com"))
            #expect(iCloud.hasSuffix("@icloud.com") && !iCloud.hasSuffix(".icloud.com"))
            var options = Self.options
            options.smtp = nil
            try await RunningEmulator.with(
                configuration: MailRelayTests.configuration(), dataDirectory: directory.url, options: options, smtp: MailRelayTests.smtp
            ) { emulator in
                // A returning sign-in keeps the address issued before.
                let again = try await WebFlow.signIn(emulator, emailChoice: "hide")
                #expect(try await emulator.verifier().verify(WebFlow.hiddenInputs(again.body)["id_token"]!).email == legacy)
                let device = try await emulator.http.postForm(
                    "/emulator/device/authorize",
                    [
                        ("client_id", Fixture.otherBundleID), ("account_name", Fixture.alice.email), ("password", Fixture.alice.password),
                        ("scope", "email"), ("email_choice", "hide"),
                    ])
                let current = try #require(device.json?["email"] as? String, "\(device.body)")
                #expect(current.hasSuffix("@private.icloud.com"))
                let port = try #require(emulator.smtpPort)
                for (address, sender, appleID) in [
                    (legacy, "hello@example.com", Fixture.alice.email), (iCloud, "hello@example.com", Fixture.bob.email),
                    (current, "news@teamb.example", Fixture.alice.email),
                ] {
                    let sent = try await SMTPTalk.sendmail(
                        port: port, from: sender, to: [address], message: MailRelayTests.message(from: sender, to: address))
                    #expect(sent["ok"] as? Bool == true, "\(address): \(sent)")
                    let inbox = try await MailRelayTests.inbox(emulator, appleID: appleID)
                    #expect(inbox.contains { $0["to"] as? String == address }, "\(address) not delivered")
                }
            }
        }
    }
}
