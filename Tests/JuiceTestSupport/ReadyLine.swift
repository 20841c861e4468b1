import Foundation
import JuiceProcesses

/// The machine-readable line `juice serve`, `juice emulator` and `juice conformance` print on standard
/// output with `--ready-json` once every listener accepts connections: a JSON object with `"ready": true`
/// and the URL (and ports) really bound. Tests wait for it instead of sleeping or polling `/health`.
package enum ReadyLine {
    /// Why a child's ready line never came.
    package struct Missing: Error, CustomStringConvertible {
        package let output: String
        package let exited: Bool
        package var description: String {
            (exited ? "the process exited before its ready line" : "no ready line in time") + "; its output:\n\(output.suffix(2000))"
        }
    }

    /// The fields of `line` if it is a ready line, else nil.
    package static func parse(_ line: some StringProtocol) -> [String: Any]? {
        guard line.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return object["ready"] as? Bool == true ? object : nil
    }

    /// The first ready line in `text`, if any.
    package static func first(in text: String) -> [String: Any]? {
        text.split(separator: "\n").lazy.compactMap(parse).first
    }

    /// Waits until `child`, whose standard output goes to `log`, has printed its ready line, and returns its
    /// fields; throws ``Missing`` at once if the child exits first, or after `timeout` (a child that never
    /// gets ready fails its test instead of stalling the suite). The log is read every 20 ms: the child
    /// writes the line once, when it is ready.
    package static func wait(for child: SpawnedChild, log: URL, timeout: Duration = .seconds(60)) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let ready = first(in: output) { return ready }
            guard child.isRunning, ContinuousClock.now < deadline else { throw Missing(output: output, exited: !child.isRunning) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
