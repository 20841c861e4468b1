import Foundation
import Synchronization
import Testing

@testable import juice

@Suite("juice bench progress")
struct BenchProgressTests {
    final class Lines: Sendable {
        let written = Mutex<[String]>([])
        var sink: @Sendable (String) -> Void { { text in self.written.withLock { $0.append(text) } } }
    }

    @Test("draws count and percentage, at most five times a second, always the last step; clears the line at the end")
    func draws() {
        let lines = Lines()
        let progress = BenchProgress(label: "sign-ins", total: 1000, write: lines.sink)
        for _ in 0..<1000 { progress.advance() }
        progress.finish()
        let written = lines.written.withLock { $0 }
        #expect(written.first == "\rsign-ins 1/1000 (0%)")
        #expect(written.dropLast().last == "\rsign-ins 1000/1000 (100%)")
        #expect(written.count <= 4, "a fast run redraws only at the start and the end: \(written)")
        #expect(written.last == "\r\u{1B}[K")
    }

    @Test("without a terminal (or a sink) nothing is written, and the count never passes the total")
    func silent() {
        let progress = BenchProgress(label: "rounds", total: 2, write: nil)
        progress.advance(by: 5)
        progress.finish()
        let lines = Lines()
        let bounded = BenchProgress(label: "rounds", total: 2, write: lines.sink)
        bounded.advance(by: 5)
        #expect(lines.written.withLock { $0 } == ["\rrounds 2/2 (100%)"])
    }
}
