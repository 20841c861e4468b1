import HTTPTypes
import Hummingbird

/// Finds who is really asking. On a connection from a ``TrustedProxies`` peer, the client is the
/// rightmost untrusted hop of `Forwarded` (RFC 7239) or else `X-Forwarded-For`, and the scheme is
/// what the nearest proxy reports (`proto=`, `X-Forwarded-Proto`). From any other peer those headers
/// are ignored: the TCP peer is the client and the scheme is the listener's.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let trusted: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !trusted.networks.isEmpty, let text = context.remoteAddress?.ipAddress, let peer = IPAddress(text), trusted.contains(peer),
            let forwarded = ForwardedHeaders(
                forwarded: request.headers[values: .forwarded], xForwardedFor: request.headers[values: .xForwardedFor],
                xForwardedProto: request.headers[values: .xForwardedProto]
            )
        else { return try await next(request, context) }
        var context = context
        context.clientAddress = forwarded.client(peer: peer, trusted: trusted).description
        context.forwardedHTTPS = forwarded.proto == "https"
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    /// RFC 7239 `Forwarded`.
    static let forwarded = Self("Forwarded")!
    /// `X-Forwarded-For`.
    static let xForwardedFor = Self("X-Forwarded-For")!
    /// `X-Forwarded-Proto`.
    static let xForwardedProto = Self("X-Forwarded-Proto")!
}
