#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A moment in whole Unix seconds, as the admin API shows it.
///
/// The emulator's tables store times as REAL seconds. A stored value that is not a finite number within
/// `Int64`'s range is a decoding error, never a trap.
struct UnixSeconds: Sendable, Hashable, Codable {
    /// Whole seconds since 1970-01-01T00:00:00Z.
    let seconds: Int64

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let stored = try container.decode(Double.self)
        guard let seconds = Int64(exactly: stored.rounded(.down)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(stored) is not a time in Unix seconds")
        }
        self.seconds = seconds
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(seconds)
    }

    /// The moment as a date, for pages.
    var date: Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
}
