import Foundation
import Synchronization

/// A one-line progress display for long `juice bench` runs (`sign-ins 120/1000 (12%)`), redrawn at
/// most five times a second, on standard error and only when it is a terminal: piped output and
/// the JSON result on standard output stay clean.
final class BenchProgress: Sendable {
    private struct State {
        var done = 0
        var lastDraw: ContinuousClock.Instant?
    }

    private let label: String
    private let total: Int
    private let write: (@Sendable (String) -> Void)?
    private let state = Mutex(State())

    /// A display that writes to `write`, or to standard error when it is a terminal (`nil`: nowhere).
    init(label: String, total: Int, write: (@Sendable (String) -> Void)? = BenchProgress.terminal) {
        self.label = label
        self.total = max(total, 1)
        self.write = write
    }

    /// Standard error when it is a terminal, else `nil`.
    static var terminal: (@Sendable (String) -> Void)? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        return { (text: String) in FileHandle.standardError.write(Data(text.utf8)) }
    }

    /// Counts `steps` more done; redraws if the last drawing is 200 ms old, or at the end.
    func advance(by steps: Int = 1) {
        guard let write else { return }
        let line: String? = state.withLock { state in
            state.done = min(state.done + steps, total)
            let now = ContinuousClock.now
            if state.done < total, let last = state.lastDraw, now - last < .milliseconds(200) { return nil }
            state.lastDraw = now
            return "\r\(label) \(state.done)/\(total) (\(state.done * 100 / total)%)"
        }
        if let line { write(line) }
    }

    /// Clears the line (before the result is printed).
    func finish() {
        write?("\r\u{1B}[K")
    }
}
