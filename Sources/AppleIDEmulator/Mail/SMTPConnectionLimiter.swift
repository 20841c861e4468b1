import Synchronization

/// How many conversations the relay holds, in all and per client address: a new connection is admitted
/// only below both limits, so one client address cannot take every slot.
final class SMTPConnectionLimiter: Sendable {
    /// Whether a new connection may be served.
    enum Admission: Equatable, Sendable {
        case admitted
        case relayFull
        case addressFull
    }

    let maximum: Int
    let maximumPerAddress: Int
    private let counts = Mutex<(total: Int, byAddress: [String: Int])>((0, [:]))

    init(maximum: Int, maximumPerAddress: Int) {
        self.maximum = maximum
        self.maximumPerAddress = maximumPerAddress
    }

    /// Counts the connection in when it is admitted; an admitted one must be ``release(_:)``d once.
    func admit(_ address: String) -> Admission {
        counts.withLock { counts in
            guard counts.total < maximum else { return .relayFull }
            let fromAddress = counts.byAddress[address, default: 0]
            guard fromAddress < maximumPerAddress else { return .addressFull }
            counts.total += 1
            counts.byAddress[address] = fromAddress + 1
            return .admitted
        }
    }

    /// Counts an admitted connection out.
    func release(_ address: String) {
        counts.withLock { counts in
            counts.total -= 1
            let left = counts.byAddress[address, default: 1] - 1
            counts.byAddress[address] = left > 0 ? left : nil
        }
    }
}
