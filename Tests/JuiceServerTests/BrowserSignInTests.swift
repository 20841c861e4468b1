import Foundation
import Testing

@testable import AppleIDEmulator

/// Where the browser test's tools are, if installed.
enum BrowserTools {
    static func find(_ names: [String]) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            for name in names {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    static let chromium = find(["chromium", "chromium-browser", "google-chrome"])
    static let chromedriver = find(["chromedriver"])
    static let python = find(["python3"])

    static var available: Bool { chromium != nil && chromedriver != nil && python != nil }

    /// The repository root (this file is Tests/JuiceServerTests/BrowserSignInTests.swift).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

@Suite("A real browser signs in with Apple")
struct BrowserSignInTests {
    @Test(
        "headless Chromium clicks Sign in with Apple, signs in and consents at the emulator, lands on /account, signs out",
        .enabled(if: BrowserTools.available, "needs chromium, chromedriver and python3 with selenium (installed by .ci/run)"),
        .timeLimit(.minutes(3)),
        arguments: TestDatabase.all
    )
    func browserSignIn(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let screenshots = BrowserTools.repository.appendingPathComponent("test-output/browser/\(database.rawValue)")
            try? FileManager.default.removeItem(at: screenshots)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: BrowserTools.python!)
            process.arguments = [
                BrowserTools.repository.appendingPathComponent("Tests/JuiceServerTests/Fixtures/browser_signin.py").path,
                stack.serverURL, StackEnvironment.johnny.email, StackEnvironment.johnny.password, screenshots.path,
            ]
            try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
            let log = screenshots.appendingPathComponent("browser.log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            // The script gives up by itself after 150 s; past 180 s it is stopped (SIGTERM: it quits
            // the browser), then killed, so a stuck browser fails this test instead of stalling the run.
            let deadline = ContinuousClock.now + .seconds(180)
            while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
            if process.isRunning {
                process.terminate()
                try await Task.sleep(for: .seconds(10))
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                Issue.record("the browser script did not finish within 180 s")
            }
            while process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
            try handle.close()
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(process.terminationStatus == 0, "\(text)")
            #expect(text.contains("browser sign-in: ok"))
            for shot in ["01-login.png", "04-account.png", "05-signed-out.png"] {
                #expect(FileManager.default.fileExists(atPath: screenshots.appendingPathComponent(shot).path), "screenshot \(shot)")
            }
        }
    }
}
