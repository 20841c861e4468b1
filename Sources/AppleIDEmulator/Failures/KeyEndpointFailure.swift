import Hummingbird

/// What `/auth/keys` answers under an injected failure: a 5xx, or (after a delay) the usual key set.
struct KeyEndpointFailure: Sendable {
    let failures: FailureInjection
    let sleep: EmulatorSleep

    /// The answer to give instead of the key set; `nil` to answer as usual (also after a delay).
    func response() async throws -> Response? {
        guard let failure = failures.take(FailureKind.keyEndpoint, clientID: nil) else { return nil }
        if failure.kind == .keysServerError {
            return HTTPExchange.error(.injectedServerError(status: failure.status ?? FailureRequest.defaultStatus))
        }
        try await sleep(.milliseconds(Int64(((failure.delaySeconds ?? 0) * 1000).rounded())))
        return nil
    }
}
