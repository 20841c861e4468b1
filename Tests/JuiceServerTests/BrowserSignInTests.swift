import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import AppleIDEmulator

@Suite("A real browser signs in with Apple")
struct BrowserSignInTests {
    @Test(
        "headless Chromium clicks Sign in with Apple, signs in and consents at the emulator, lands on /account, signs out",
        .enabled(if: BrowserTools.shouldRun, "needs chromium, chromedriver and python3 with selenium (scripts/test installs them)"),
        .timeLimit(.minutes(8)),
        arguments: TestDatabase.all
    )
    func browserSignIn(database: TestDatabase) async throws {
        guard BrowserTools.available else {
            Issue.record("JUICE_TEST_REQUIRE_ALL=1 requires the browser test, but \(BrowserTools.missing) is missing")
            return
        }
        try await JuiceStack.with(database: database) { stack in
            let screenshots = TestOutput.base.appendingPathComponent("browser/\(database.rawValue)")
            try? FileManager.default.removeItem(at: screenshots)
            // The script gives up by itself after 150 s; past 180 s it is stopped.
            let (status, text) = try await BrowserTools.runPython(
                script: BrowserTools.repository.appendingPathComponent("Tests/JuiceServerTests/Fixtures/browser_signin.py"),
                arguments: [stack.serverURL, StackEnvironment.johnny.email, StackEnvironment.johnny.password, screenshots.path],
                log: screenshots.appendingPathComponent("browser.log"), limit: .seconds(180)
            )
            #expect(status == 0, "\(text)")
            #expect(text.contains("browser sign-in: ok"))
            for shot in ["01-login.png", "04-account.png", "05-signed-out.png", "06-signup-hint.png"] {
                #expect(FileManager.default.fileExists(atPath: screenshots.appendingPathComponent(shot).path), "screenshot \(shot)")
            }
        }
    }
}
