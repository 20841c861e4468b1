import Hummingbird

extension ServerError {
    /// 503 `server_busy` with `Retry-After: seconds`.
    static func busy(retryAfter seconds: Int) -> Self {
        var error = ServerError(.serverBusy, status: .serviceUnavailable, "the server is busy checking passwords; try again in a moment")
        error.headers[.retryAfter] = String(seconds)
        return error
    }
}
