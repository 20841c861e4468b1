import Hummingbird

extension ServerError {
    /// 429 `rate_limited` with `Retry-After: seconds`.
    static func rateLimited(retryAfter seconds: Int) -> Self {
        var error = ServerError(.rateLimited, status: .tooManyRequests, "too many failed attempts; wait a few minutes and try again")
        error.headers[.retryAfter] = String(seconds)
        return error
    }
}
