import JuiceHTTP

/// What one delivery attempt of a notification got back: an HTTP status, or why there was none.
enum DeliveryResult: Sendable, Hashable {
    /// The endpoint answered with this HTTP status (a 3xx too: redirects are never followed).
    case status(Int)
    /// The endpoint's answer began with this status but did not complete (its body was over the limit).
    case incomplete(status: Int, reason: String)
    /// No HTTP answer: the connection failed, the deadline passed, or the notification could not be signed.
    case failure(String)

    /// The result of an exchange that failed: the head's status when one came, and a short reason.
    init(_ failure: OutgoingHTTPFailure) {
        switch failure {
        case .bodyTooLarge(let status, _): self = .incomplete(status: status, reason: failure.description)
        case .deadlineExceeded: self = .failure("timeout: " + failure.description)
        default: self = .failure("unreachable: " + failure.description)
        }
    }

    /// Apple counts a notification delivered on a 2xx answer only (a complete one).
    var isDelivered: Bool {
        if case .status(let code) = self { return (200..<300).contains(code) }
        return false
    }

    /// The HTTP status, when an answer's head came.
    var httpStatus: Int? {
        switch self {
        case .status(let code), .incomplete(let code, _): code
        case .failure: nil
        }
    }

    /// What the delivery log says beside a 3xx: the notification is POSTed to the configured URL only.
    static let redirectNotFollowed = "redirect not followed"

    /// Why the attempt failed without a complete answer, or that a redirect was not followed (`nil` for
    /// any other complete answer, whatever its status).
    var error: String? {
        switch self {
        case .status(let code): (300..<400).contains(code) ? Self.redirectNotFollowed : nil
        case .incomplete(_, let reason), .failure(let reason): reason
        }
    }

    /// The short text kept in the outbox's `last_result`: the status code, or the failure.
    var summary: String {
        switch self {
        case .status(let code): error.map { "\(code): \($0)" } ?? "\(code)"
        case .incomplete(let code, let reason): "\(code): \(reason)"
        case .failure(let reason): reason
        }
    }
}
