import AppleSignIn
import Foundation
import Synchronization

@testable import AppleIDEmulator

/// A clock tests move by hand; starts at the real current time so tokens look ordinary.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date()) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    var time: TimeSource { TimeSource { self.now } }
    var emulatorTime: EmulatorTime { EmulatorTime { self.now } }
}
