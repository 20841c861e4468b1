import Hummingbird

extension ServerError {
    /// 429 `rate_limited` with `Retry-After: seconds`.
    static func rateLimited(retryAfter seconds: Int) -> Self {
        var error = ServerError(.rateLimited, status: .tooManyRequests, "too many failed attempts; wait a few minutes and try again")
        error.headers[.retryAfter] = String(seconds)
        return error
    }
}

extension ServerError {
    /// 429 `rate_limited` for a client address that began too many sign-ups (password or passkey).
    static func tooManySignUps(retryAfter seconds: Int) -> Self {
        var error = ServerError(.rateLimited, status: .tooManyRequests, "too many sign-ups from this address; wait and try again")
        error.headers[.retryAfter] = String(seconds)
        return error
    }
}
