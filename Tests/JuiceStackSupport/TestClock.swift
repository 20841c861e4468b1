import AppleIDEmulator
import AppleSignIn
import Foundation
import JuiceTestSupport
import Synchronization

/// A wall clock tests move by hand, shared by the emulator and the relying party: it starts at the real
/// current time (whole seconds, as token times are), so tokens look ordinary, and moves only by ``advance(by:)``.
package final class TestClock: Sendable {
    private let current: Mutex<Date>

    package init(_ start: Date = Date()) {
        current = Mutex(Date(timeIntervalSince1970: start.timeIntervalSince1970.rounded(.down)))
    }

    package var now: Date { current.withLock { $0 } }

    package func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The toolkit's and the server's clock, reading this one.
    package var timeSource: TimeSource { TimeSource { self.now } }
    /// The emulator's clock, reading this one.
    package var emulatorTime: EmulatorTime { EmulatorTime { self.now } }
}
