import HTTPTypes
import Hummingbird
import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What every request under `/emulator/admin/` must pass before its handler runs.
///
/// - With an `admin_token`: `Authorization: Bearer <admin_token>` (401 otherwise). A page in a browser
///   cannot send it, so nothing else is asked.
/// - Without one (development): the `Host` must be a loopback name or address (`localhost`,
///   `*.localhost`, `127.0.0.0/8`, `::1`) or the emulator's own host name, so a page that rebinds its
///   DNS name to 127.0.0.1 cannot read the inboxes (403 `misdirected_request` otherwise); and a
///   state-changing request (`POST`, `PUT`, `PATCH`, `DELETE`) must be `application/json`, which a
///   cross-site HTML form cannot send without a preflight (415 `unsupported_media_type` otherwise).
struct AdminRequestGuard<Context: RequestContext>: RouterMiddleware {
    let adminToken: String?
    let address: EmulatorAddress

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let failure = refusal(of: request) { return HTTPExchange.error(failure) }
        return try await next(request, context)
    }

    /// Why `request` may not reach an admin handler, or `nil`.
    func refusal(of request: Request) -> OAuthError? {
        if let adminToken {
            let presented = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil } ?? ""
            guard constantTimeEquals(presented, adminToken) else {
                return OAuthError(code: "unauthorized", description: "Authorization: Bearer <admin_token> is required", status: .unauthorized)
            }
            return nil
        }
        let host = request.head.authority.flatMap(Self.hostName(ofAuthority:)) ?? ""
        guard Self.isLoopback(host) || host == Self.hostName(ofURL: address.baseURL) else {
            return OAuthError(
                code: "misdirected_request",
                description: "without an admin_token the admin endpoints answer only a loopback Host (localhost, 127.0.0.1, [::1])",
                status: .forbidden)
        }
        let changesState: Set<HTTPRequest.Method> = [.post, .put, .patch, .delete]
        if changesState.contains(request.method), MediaType.essence(of: request.headers[.contentType]) != "application/json" {
            return OAuthError(
                code: "unsupported_media_type", description: "an admin request that changes state must be application/json",
                status: .unsupportedMediaType)
        }
        return nil
    }

    /// The lowercased host of a `Host` value (`name`, `name:port`, `[v6]`, `[v6]:port`), or `nil`.
    static func hostName(ofAuthority authority: String) -> String? {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            return authority[authority.index(after: authority.startIndex)..<close].lowercased()
        }
        let host = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return host.isEmpty ? nil : host.lowercased()
    }

    /// The host of a base URL such as `http://[::1]:8081`.
    static func hostName(ofURL url: String) -> String? {
        guard let scheme = url.firstRange(of: "://") else { return nil }
        let authority = url[scheme.upperBound...].prefix { $0 != "/" }
        return hostName(ofAuthority: String(authority))
    }

    /// `localhost` and its subdomains (RFC 6761 §6.3), `127.0.0.0/8`, and `::1`.
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { $0.count <= 3 && !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) && (Int($0) ?? 256) <= 255 }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
