import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The emulator's own clock: the injected ``EmulatorTime`` plus an offset that only the fixture API
/// (admin, `POST /emulator/admin/clock`) sets or advances, and a reset clears. Every component reads
/// ``time``, so moving it expires codes, tokens, sessions and keys and makes notification retries due.
final class EmulatorClock: Sendable {
    /// The earliest and latest moments the clock may be set to (2000-01-01 and 2100-01-01).
    static let settableRange: ClosedRange<Double> = 946_684_800...4_102_444_800
    /// The longest single advance: ten years.
    static let maximumAdvance: Double = 10 * 366 * 86_400

    private let base: EmulatorTime
    private let offset = Mutex<TimeInterval>(0)

    init(base: EmulatorTime) {
        self.base = base
    }

    /// The time every component reads.
    var time: EmulatorTime { EmulatorTime { self.now } }

    /// The current time: the base time plus the offset.
    var now: Date { base.now.addingTimeInterval(offset.withLock { $0 }) }

    /// How far the clock is from the base time, in seconds.
    var currentOffset: TimeInterval { offset.withLock { $0 } }

    /// Sets the clock to `moment` (Unix seconds within ``settableRange``); it runs on from there.
    func set(to moment: Double) throws(EmulatorClockError) {
        guard moment.isFinite, Self.settableRange.contains(moment) else { throw .outOfRange }
        let target = moment - base.now.timeIntervalSince1970
        offset.withLock { $0 = target }
    }

    /// Moves the clock forward by `seconds` (0 up to ``maximumAdvance``).
    func advance(by seconds: Double) throws(EmulatorClockError) {
        guard seconds.isFinite, (0...Self.maximumAdvance).contains(seconds) else { throw .advanceOutOfRange }
        offset.withLock { $0 += seconds }
    }

    /// Back to the base time.
    func reset() {
        offset.withLock { $0 = 0 }
    }
}

/// Why the fixture API refused to move the clock.
enum EmulatorClockError: Error, Sendable {
    /// `set` outside 2000-01-01 … 2100-01-01.
    case outOfRange
    /// `advance` negative, not finite, or over ten years.
    case advanceOutOfRange

    var reason: String {
        switch self {
        case .outOfRange: "set must be Unix seconds between 946684800 (2000-01-01) and 4102444800 (2100-01-01)"
        case .advanceOutOfRange: "advance must be seconds from 0 to 316224000 (ten years); the clock never moves back by advancing"
        }
    }
}
