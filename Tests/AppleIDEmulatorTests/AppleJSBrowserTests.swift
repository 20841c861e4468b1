import AppleSignIn
import Foundation
import JuiceTestSupport
import Logging
import Synchronization
import Testing

@testable import AppleIDEmulator

/// Sign in with Apple JS in headless Chromium: a page written from Apple's documentation, served on
/// its own origin, with only the script's host pointing at the emulator.
@Suite("Sign in with Apple JS in a real browser")
struct AppleJSBrowserTests {
    @Test(
        """
        popup sign-in (new and returning Apple ID), Cancel, closing the popup, forged messages from another origin ignored, \
        refused requests reject with Apple's code, redirect mode, localized button
        """,
        .enabled(if: BrowserTools.shouldRun, "needs chromium, chromedriver and python3 with selenium (scripts/test installs them)"),
        .timeLimit(.minutes(8))
    )
    func popupSignIn() async throws {
        guard BrowserTools.available else {
            Issue.record("JUICE_TEST_REQUIRE_ALL=1 requires the browser test, but \(BrowserTools.missing) is missing")
            return
        }
        var logger = Logger(label: "apple-js-test")
        logger.logLevel = .warning
        let site = RelyingPartyPages()
        let other = RelyingPartyPages()
        let siteReady = AsyncStream.makeStream(of: Int.self)
        let otherReady = AsyncStream.makeStream(of: Int.self)
        try await withRunningServices([site.application { siteReady.continuation.yield($0) }], logger: logger, ready: siteReady) { sitePort in
            try await withRunningServices([other.application { otherReady.continuation.yield($0) }], logger: logger, ready: otherReady) { otherPort in
                let siteURL = "http://127.0.0.1:\(sitePort)"
                let callback = siteURL + "/callback"
                var configuration = Fixture.configuration()
                configuration.apps[0].redirectURIs.append(callback)
                try await RunningEmulator.with(configuration: configuration) { emulator in
                    site.emulatorURL.withLock { $0 = emulator.baseURL }
                    let output = TestOutput.base.appendingPathComponent("apple-js")
                    try? FileManager.default.removeItem(at: output)
                    let results = output.appendingPathComponent("results.json")
                    let (status, text) = try await BrowserTools.runPython(
                        script: BrowserTools.repository.appendingPathComponent("Tests/AppleIDEmulatorTests/Fixtures/apple_js.py"),
                        arguments: [
                            siteURL, "http://127.0.0.1:\(otherPort)", emulator.baseURL, Fixture.servicesID, Fixture.bundleID, callback,
                            Fixture.alice.email, Fixture.alice.password, Fixture.bob.email, Fixture.bob.password, output.path,
                        ],
                        log: output.appendingPathComponent("browser.log"), limit: .seconds(200)
                    )
                    #expect(status == 0, "\(text)")
                    #expect(text.contains("apple js: ok"), "\(text)")
                    // What the page got is Apple's: the identity tokens verify with the page's nonce
                    // and their codes.
                    let data = try Data(contentsOf: results)
                    let signIns = try #require((try JSONSerialization.jsonObject(with: data)) as? [[String: Any]])
                    #expect(signIns.count == 3)
                    let verifier = emulator.verifier(audiences: [Fixture.servicesID])
                    for signIn in signIns {
                        let authorization = try #require(signIn["authorization"] as? [String: Any])
                        let code = try #require(authorization["code"] as? String)
                        let idToken = try #require(authorization["id_token"] as? String)
                        let token = try await verifier.verify(idToken, nonceClaim: "rp-nonce-1", authorizationCode: code)
                        #expect(token.audience == Fixture.servicesID)
                        #expect(authorization["state"] as? String == "rp-state-1")
                    }
                }
            }
        }
    }
}
