import Foundation
import Synchronization

/// Text printed once every listener of a command is accepting connections, so that "Open: URL"
/// never appears before the URL answers (scripts and tests wait for it).
///
/// With a ready line (`juice serve --ready-json`), standard output gets exactly that one JSON line, for a
/// program to read, and the text for people goes to standard error.
final class ReadinessBanner: Sendable {
    private let remaining: Mutex<Int>
    private let text: String
    private let readyLine: String?

    /// A banner that prints `text` (and `readyLine`, when given) after `listeners` calls of ``listening(_:)``.
    init(listeners: Int, text: String, readyLine: String? = nil) {
        remaining = Mutex(listeners)
        self.text = text
        self.readyLine = readyLine
    }

    /// The one JSON line `juice serve --ready-json` prints: `{"apple", "ready", "url"}`, the URL people open and
    /// the Apple (or emulator) base URL the server talks to.
    static func serveReadyLine(url: String, apple: String) -> String {
        let fields: [String: Any] = ["ready": true, "url": url.trimmingSuffix("/"), "apple": apple.trimmingSuffix("/")]
        let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// One listener is bound; the last one prints the banner.
    func listening(_ port: Int) async {
        let last = remaining.withLock { count in
            count -= 1
            return count == 0
        }
        guard last else { return }
        if let readyLine {
            FileHandle.standardError.write(Data(text.utf8))
            FileHandle.standardOutput.write(Data((readyLine + "\n").utf8))
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }
}
