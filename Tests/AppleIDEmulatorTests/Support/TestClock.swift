import AppleSignIn
import Foundation
import Synchronization

@testable import AppleIDEmulator

/// A clock tests move by hand; shared by the emulator and the relying party.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date()) {
        current = Mutex(Date(timeIntervalSince1970: start.timeIntervalSince1970.rounded(.down)))
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    var emulatorTime: EmulatorTime { EmulatorTime { self.now } }
    var timeSource: TimeSource { TimeSource { self.now } }
}
