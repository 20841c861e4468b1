import HTTPTypes

extension ServerError {
    /// 400 `invalid_state`: a sign-in's `state` (or its sealed hand-off) is unknown, expired or already used.
    static let staleState = ServerError(.invalidState, status: .badRequest, "this sign-in has expired or was already used; start again")
}
