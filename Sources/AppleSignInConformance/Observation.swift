// Foundation, not FoundationEssentials: `range(of:options: .regularExpression)`, which finds the error code in an answer.
import Foundation

/// What the backend did with one case's input.
enum Observation: Sendable {
    case accepted(String)
    case refused(String)
    /// A 5xx, an unexpected answer, or a step before the judged request that went wrong.
    case error(String)
    case timeout(String)
    /// The backend answered, but did what no correct backend does (kept an unsigned email, never revoked …).
    case violation(String)
    /// Accepted, but only after a delay a correct backend does not need (a key refetch after a cooldown): a WARNING.
    case late(String)
    /// The case could not be judged: a step before it did not succeed.
    case inconclusive(String)
    /// The case does not apply: its endpoint was not given, or the backend does not use what it tests.
    case skipped(String)

    /// The report's `observed`.
    var word: String {
        switch self {
        case .accepted: "accepted"
        case .refused: "refused"
        case .error: "error"
        case .timeout: "timeout"
        case .violation: "violation"
        case .late: "accepted-late"
        case .inconclusive: "unknown"
        case .skipped: "skipped"
        }
    }

    var detail: String {
        switch self {
        case .accepted(let detail), .refused(let detail), .error(let detail), .timeout(let detail), .violation(let detail),
            .late(let detail), .inconclusive(let detail), .skipped(let detail):
            detail
        }
    }

    /// The same observation with `text` added to its detail.
    func appending(_ text: String) -> Observation {
        switch self {
        case .accepted(let detail): .accepted(detail + text)
        case .refused(let detail): .refused(detail + text)
        case .error(let detail): .error(detail + text)
        case .timeout(let detail): .timeout(detail + text)
        case .violation(let detail): .violation(detail + text)
        case .late(let detail): .late(detail + text)
        case .inconclusive(let detail): .inconclusive(detail + text)
        case .skipped(let detail): .skipped(detail + text)
        }
    }

    var isAccepted: Bool {
        if case .accepted = self { return true }
        return false
    }

    /// Judges a plain API answer: 2xx accepted, 5xx error, anything else refused.
    static func api(_ answer: BackendClient.Answer, what: String) -> Observation {
        switch answer.status {
        case 200..<300: .accepted("\(what) answered HTTP \(answer.status)")
        case 500...: .error("\(what) answered HTTP \(answer.status)\(Self.errorCode(answer))")
        default: .refused("\(what) answered HTTP \(answer.status)\(Self.errorCode(answer))")
        }
    }

    static func failure(_ failure: BackendClient.Failure, what: String) -> Observation {
        switch failure {
        case .timeout: .timeout("\(what) did not answer in time")
        case .unreachable(let reason): .error("\(what) could not be reached: \(reason.prefix(200))")
        }
    }

    /// ` (error: code)` when the body is the usual `{"error": …}` JSON.
    private static func errorCode(_ answer: BackendClient.Answer) -> String {
        guard let range = answer.body.range(of: #""error"\s*:\s*"([A-Za-z0-9_.-]{1,64})""#, options: .regularExpression) else { return "" }
        let match = answer.body[range]
        guard let start = match.dropLast().lastIndex(of: "\"") else { return "" }
        return " (error: \(match[match.index(after: start)..<match.index(before: match.endIndex)]))"
    }
}
