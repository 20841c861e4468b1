import Foundation
import Hummingbird
import JuiceEncodings

/// A native client's loopback redirect URI for the loopback bridge (RFC 8252 §7.3): `http`, the literal
/// address `127.0.0.1` or `[::1]`, an explicit port, no user info, no fragment.
///
/// `localhost` is refused: it may resolve to another interface or be claimed by another process.
///
/// ```swift
/// let target = try LoopbackRedirectURI("http://127.0.0.1:53682/callback")
/// ```
struct LoopbackRedirectURI: Sendable, Hashable, CustomStringConvertible {
    /// The URI as given.
    let url: URL

    /// The longest URI accepted.
    static let maximumLength = 512

    /// Validates `text`.
    /// - Throws: ``ServerError`` `invalid_redirect_uri` (400).
    init(_ text: String) throws(ServerError) {
        guard text.utf8.count <= Self.maximumLength, let components = URLComponents(string: text), let url = components.url else {
            throw Self.refused("redirect_uri is not a URL")
        }
        guard components.scheme == "http" else { throw Self.refused("redirect_uri must use http (a loopback listener has no certificate)") }
        guard components.user == nil, components.password == nil else { throw Self.refused("redirect_uri must not carry user information") }
        guard components.fragment == nil else { throw Self.refused("redirect_uri must not have a fragment") }
        guard let host = components.percentEncodedHost, host == "127.0.0.1" || host == "[::1]" || host == "::1" else {
            throw Self.refused("redirect_uri must be a loopback address: http://127.0.0.1:PORT/… or http://[::1]:PORT/…")
        }
        guard let port = components.port, (1...65_535).contains(port) else { throw Self.refused("redirect_uri must name its port") }
        self.url = url
    }

    var description: String { url.absoluteString }

    /// The URI with `fields` appended to its query (percent-encoded), for a `303` to the client.
    func appending(_ fields: [(String, String)]) -> URL {
        let encoded = FormURLComponent.encode(fields: fields)
        var text = url.absoluteString
        if let query = url.query, !query.isEmpty { text += "&" + encoded } else { text += (text.hasSuffix("?") ? "" : "?") + encoded }
        return URL(string: text) ?? url
    }

    static func refused(_ reason: String) -> ServerError {
        ServerError(.invalidRedirectURI, status: .badRequest, reason)
    }
}
