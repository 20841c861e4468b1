import Foundation
import Synchronization

/// Text printed once every listener of a command is accepting connections, so that "Open: URL"
/// never appears before the URL answers (scripts and tests wait for it).
final class ReadinessBanner: Sendable {
    private let remaining: Mutex<Int>
    private let text: String

    /// A banner that prints `text` after `listeners` calls of ``listening(_:)``.
    init(listeners: Int, text: String) {
        remaining = Mutex(listeners)
        self.text = text
    }

    /// One listener is bound; the last one prints the banner.
    func listening(_ port: Int) async {
        let last = remaining.withLock { count in
            count -= 1
            return count == 0
        }
        if last { FileHandle.standardOutput.write(Data(text.utf8)) }
    }
}
