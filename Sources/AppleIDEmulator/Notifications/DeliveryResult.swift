/// What one delivery attempt of a notification got back: an HTTP status, or why there was none.
enum DeliveryResult: Sendable, Hashable {
    /// The endpoint answered with this HTTP status.
    case status(Int)
    /// No HTTP answer: the connection failed, timed out, or the notification could not be signed.
    case failure(String)

    /// Apple counts a notification delivered on a 2xx answer only.
    var isDelivered: Bool {
        if case .status(let code) = self { return (200..<300).contains(code) }
        return false
    }

    /// The short text kept in the outbox's `last_result`: the status code, or the failure.
    var summary: String {
        switch self {
        case .status(let code): "\(code)"
        case .failure(let reason): reason
        }
    }
}
