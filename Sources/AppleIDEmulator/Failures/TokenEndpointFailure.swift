import HTTPTypes
import Hummingbird
import NIOCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `/auth/token` answers under an injected failure: a 5xx, `invalid_grant`, `invalid_client`, a
/// body that is not JSON, or (after a delay) the usual answer. Consulted before the request is checked,
/// so a refused request spends nothing: its code can still be redeemed once the failure is cleared.
struct TokenEndpointFailure: Sendable {
    /// The body of `token_malformed_json`: JSON cut off in the middle of an object.
    static let malformedBody = #"{"access_token": "a"#

    let failures: FailureInjection
    let sleep: EmulatorSleep

    /// The answer to give instead of the usual one; `nil` to answer as usual (also after a delay).
    func response(clientID: String?) async throws -> Response? {
        guard let failure = failures.take(FailureKind.tokenEndpoint, clientID: clientID) else { return nil }
        switch failure.kind {
        case .tokenServerError:
            return HTTPExchange.error(.injectedServerError(status: failure.status ?? FailureRequest.defaultStatus))
        case .tokenInvalidGrant:
            return HTTPExchange.error(.invalidGrant("the code is not valid"))
        case .tokenInvalidClient:
            return HTTPExchange.error(.invalidClient("the client is not valid"))
        case .tokenMalformedJSON:
            var headers = HTTPFields()
            headers[.contentType] = "application/json;charset=UTF-8"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: Self.malformedBody)))
        default:
            try await sleep(.milliseconds(Int64(((failure.delaySeconds ?? 0) * 1000).rounded())))
            return nil
        }
    }
}
