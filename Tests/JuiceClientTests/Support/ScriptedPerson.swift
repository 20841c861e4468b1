import Foundation
import JuiceClient
import JuiceTestSupport

/// The person at the browser: `$BROWSER` is a script that records each URL it is given; the person
/// then visits it with an HTTP client that follows redirects, as a browser does.
struct ScriptedPerson: Sendable {
    let record: URL
    let script: String

    init(in directory: TemporaryDirectory) throws {
        record = directory.file("visited-urls")
        script = try directory.script("browser", "printf '%s\\n' \"$1\" >> '\(record.path)'")
    }

    /// An opener running only the script (no `xdg-open` fallback on the `PATH`).
    var browser: BrowserOpener { BrowserOpener(environment: ["BROWSER": script, "PATH": "/nonexistent"], announce: { _ in }) }

    /// The URLs the browser was asked to open so far.
    var openedURLs: [String] {
        ((try? String(contentsOf: record, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}

/// A deterministic random source: every byte is `byte`.
func fixedRandom(_ byte: UInt8 = 7) -> RandomSource { RandomSource { Array(repeating: byte, count: $0) } }
