import Foundation
import JuiceProcesses

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the browser tests' tools are, if installed (Chromium, chromedriver, python3 with selenium),
/// and how a selenium script is run from a test: a real process, bounded in time.
package enum BrowserTools {
    package static func find(_ names: [String]) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            for name in names {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    package static let chromium = find(["chromium", "chromium-browser", "google-chrome"])
    package static let chromedriver = find(["chromedriver"])
    package static let python = find(["python3"])

    /// Whether `python3` can import selenium (checked once).
    package static let selenium = pythonCanImport("selenium")
    /// Whether `python3` can import requests (checked once): the emulator's fixture API example needs it.
    package static let requests = pythonCanImport("requests")

    /// Whether `python3` can import `module`.
    package static func pythonCanImport(_ module: String) -> Bool {
        guard let python, let child = try? SpawnedChild.start(python, ["-c", "import \(module)"], standardIO: .null) else { return false }
        while child.isRunning { usleep(5_000) }  // checked once per module, before any test runs
        return child.exit == .exited(0)
    }

    package static var available: Bool { chromium != nil && chromedriver != nil && selenium }

    /// What is missing, for the skip notice or the failure.
    package static var missing: String {
        [chromium == nil ? "chromium" : nil, chromedriver == nil ? "chromedriver" : nil, selenium ? nil : "python3 with selenium"]
            .compactMap { $0 }.joined(separator: ", ")
    }

    /// `JUICE_TEST_REQUIRE_ALL=1` (set by `scripts/test`): a browser test that would be skipped fails instead.
    package static var requireAll: Bool { ProcessInfo.processInfo.environment["JUICE_TEST_REQUIRE_ALL"] == "1" }

    /// Runs a browser test when the tools are there, and also when `JUICE_TEST_REQUIRE_ALL=1`
    /// (then it fails naming what is missing); otherwise it is skipped with that reason.
    package static var shouldRun: Bool { available || requireAll }

    /// The repository root (this file is Tests/JuiceTestSupport/BrowserTools.swift).
    package static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `python3 script arguments…` with its output in `log`; past `limit` it is stopped (SIGTERM,
    /// which makes a selenium script quit its browser), then killed, so a stuck browser fails the
    /// test instead of stalling the run.
    /// - Returns: The exit status (`nil` when it had to be stopped) and the output.
    ///
    /// One browser runs at a time in the whole test process (the suites run in parallel, and several
    /// Chromium instances at once on two cores pushed each past its time limit); `limit` counts from
    /// the moment this script's turn comes, so a test's own time limit must allow for the wait.
    package static func runPython(script: URL, arguments: [String], log: URL, limit: Duration) async throws -> (status: Int32?, output: String) {
        try await browserTurn.wait()
        do {
            let result = try await runPythonNow(script: script, arguments: arguments, log: log, limit: limit)
            await browserTurn.end()
            return result
        } catch {
            await browserTurn.end()
            throw error
        }
    }

    private static let browserTurn = Turn()

    /// This directory, which holds `juice_browser.py` (what the scripts share).
    private static let sharedPythonDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path

    /// Chromium keeps its singleton socket in a directory of its own under `TMPDIR` and leaves it there when
    /// chromedriver ends it; the script runs with `TMPDIR` in a directory removed afterwards.
    private static func runPythonNow(script: URL, arguments: [String], log: URL, limit: Duration) async throws -> (status: Int32?, output: String) {
        let temporary = try TemporaryDirectory("browser")
        defer { temporary.remove() }
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = ([sharedPythonDirectory] + [environment["PYTHONPATH"]].compactMap { $0 }).joined(separator: ":")
        environment["TMPDIR"] = temporary.url.path
        try FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let child = try SpawnedChild.start(
            python ?? "/usr/bin/python3", [script.path] + arguments, environment: environment, standardIO: .file(log.path))
        let stopper = Task { () -> Bool in
            do { try await Task.sleep(for: limit) } catch { return false }
            // SIGTERM first: it makes a selenium script quit its browser.
            await child.stop(grace: .seconds(10))
            return true
        }
        let exit = await child.wait()
        stopper.cancel()
        let stopped = await stopper.value
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return (stopped ? nil : exit.status ?? -1, output)
    }
}

/// One holder at a time; waiting is polled, so a cancelled test (its time limit reached) stops
/// waiting instead of hanging the run.
private actor Turn {
    private var taken = false

    func wait() async throws {
        while !take() { try await Task.sleep(for: .milliseconds(200)) }
    }

    func end() { taken = false }

    private func take() -> Bool {
        guard !taken else { return false }
        taken = true
        return true
    }
}
