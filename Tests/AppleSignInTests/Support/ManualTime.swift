import Foundation
import Synchronization

@testable import AppleSignIn

/// A clock the test moves by hand.
final class ManualTime: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = TokenForge.now) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    var source: TimeSource {
        TimeSource { [self] in now }
    }
}
