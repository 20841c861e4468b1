import Foundation
import JuiceStackSupport
import JuiceTestSupport
import SQLKit
import Testing

@testable import JuiceServer

@Suite("A real browser adds, uses and removes a passkey (Chromium's virtual authenticator)")
struct BrowserPasskeyTests {
    @Test(
        "password sign-up → offer → add, rename → sign in with the button and by autofill → a clone, a removed and a foreign passkey are refused; the last sign-in method stays",
        .enabled(if: BrowserTools.shouldRun, "needs chromium, chromedriver and python3 with selenium (scripts/test installs them)"),
        .timeLimit(.minutes(8)),
        arguments: TestDatabase.all
    )
    func passkeysInTheBrowser(database: TestDatabase) async throws {
        try await Self.withLocalhostStack(database) { stack in
            let screenshots = TestOutput.base.appendingPathComponent("browser-passkeys/\(database.rawValue)")
            try? FileManager.default.removeItem(at: screenshots)
            // The script gives up by itself after 170 s; past 200 s it is stopped.
            let (status, text) = try await BrowserTools.runPython(
                script: BrowserTools.repository.appendingPathComponent("Tests/JuiceServerTests/Fixtures/browser_passkeys.py"),
                arguments: [stack.serverURL, "passkey-fan", "fresh-squeezed-42", screenshots.path],
                log: screenshots.appendingPathComponent("browser.log"), limit: .seconds(200)
            )
            #expect(status == 0, "\(text)")
            #expect(text.contains("browser passkeys: ok"))
            #expect(text.contains("conditional mediation: completed headlessly"))
            for shot in [
                "01-without-webauthn.png", "02-offer.png", "03-passkey-added.png", "06-signed-in-with-button.png", "08-clone-refused.png",
                "11-foreign-refused.png",
            ] {
                #expect(FileManager.default.fileExists(atPath: screenshots.appendingPathComponent(shot).path), "screenshot \(shot)")
            }
            guard status == 0 else { return }

            // Without its password, the account's one passkey is its only way in: removing it is refused.
            try await stack.withDatabase { database in
                try await database.autocommit { sql in
                    try await sql.raw(
                        "DELETE FROM password_credentials WHERE account_id = (SELECT id FROM accounts WHERE username = 'passkey-fan')"
                    ).run()
                }
            }
            let (lastStatus, lastText) = try await BrowserTools.runPython(
                script: BrowserTools.repository.appendingPathComponent("Tests/JuiceServerTests/Fixtures/browser_passkeys.py"),
                arguments: [stack.serverURL, "passkey-fan", "fresh-squeezed-42", screenshots.path, "last-method"],
                log: screenshots.appendingPathComponent("browser-last-method.log"), limit: .seconds(90)
            )
            #expect(lastStatus == 0, "\(lastText)")
            #expect(lastText.contains("last sign-in method kept"))
        }
    }

    @Test(
        "passkey-first: sign up with only a passkey, sign out, sign back in with it, add a password, remove the passkey",
        .enabled(if: BrowserTools.shouldRun, "needs chromium, chromedriver and python3 with selenium (scripts/test installs them)"),
        .timeLimit(.minutes(4)),
        arguments: TestDatabase.all
    )
    func passkeyFirstAccount(database: TestDatabase) async throws {
        try await Self.withLocalhostStack(database) { stack in
            let screenshots = TestOutput.base.appendingPathComponent("browser-passkey-signup/\(database.rawValue)")
            try? FileManager.default.removeItem(at: screenshots)
            let (status, text) = try await BrowserTools.runPython(
                script: BrowserTools.repository.appendingPathComponent("Tests/JuiceServerTests/Fixtures/browser_passkey_signup.py"),
                arguments: [stack.serverURL, "first-with-passkey", "fresh-squeezed-42", screenshots.path],
                log: screenshots.appendingPathComponent("browser.log"), limit: .seconds(150)
            )
            #expect(status == 0, "\(text)")
            #expect(text.contains("passkey sign-up: ok"))
            let passwords = try await stack.withDatabase { database in
                try await database.read { sql in
                    try await sql.raw(
                        "SELECT COUNT(*) AS n FROM password_credentials p JOIN accounts a ON a.id = p.account_id WHERE a.username = 'first-with-passkey'"
                    ).first()?.decode(column: "n", as: Int64.self)
                }
            }
            #expect(passwords == 1, "the password added in the browser is stored for the username chosen at sign-up")
        }
    }

    /// Runs `body` on a stack whose public host is `localhost` (WebAuthn takes no IP address for an RP
    /// ID); records an issue instead when `JUICE_TEST_REQUIRE_ALL=1` demands a browser that is missing.
    static func withLocalhostStack(_ database: TestDatabase, _ body: @Sendable @escaping (JuiceStack) async throws -> Void) async throws {
        guard BrowserTools.available else {
            Issue.record("JUICE_TEST_REQUIRE_ALL=1 requires the browser test, but \(BrowserTools.missing) is missing")
            return
        }
        try await StackEnvironment.with(database) { environment in
            var environment = environment
            environment.publicHost = "localhost"
            try await JuiceStack.with(environment: environment, body)
        }
    }
}
