import Foundation
import JuiceTestSupport
import Testing

@Suite("A real browser adds, uses and removes a passkey (Chromium's virtual authenticator)")
struct BrowserPasskeyTests {
    @Test(
        "password sign-up → offer → add, rename → sign in with the button and by autofill → a clone, a removed and a foreign passkey are refused",
        .enabled(if: BrowserTools.shouldRun, "needs chromium, chromedriver and python3 with selenium (scripts/test installs them)"),
        .timeLimit(.minutes(8)),
        arguments: TestDatabase.all
    )
    func passkeysInTheBrowser(database: TestDatabase) async throws {
        guard BrowserTools.available else {
            Issue.record("JUICE_TEST_REQUIRE_ALL=1 requires the browser test, but \(BrowserTools.missing) is missing")
            return
        }
        try await StackEnvironment.with(database) { environment in
            var environment = environment
            // WebAuthn takes no IP address for an RP ID: the browser's site is localhost.
            environment.publicHost = "localhost"
            try await JuiceStack.with(environment: environment) { stack in
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
                for shot in ["01-offer.png", "02-passkey-added.png", "05-signed-in-with-button.png", "07-clone-refused.png", "10-foreign-refused.png"] {
                    #expect(FileManager.default.fileExists(atPath: screenshots.appendingPathComponent(shot).path), "screenshot \(shot)")
                }
            }
        }
    }
}
