#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `response_mode=web_message` hands to the page that opened the popup: the popup's final page
/// posts this object to `window.opener` with `postMessage`, targeted at the origin of the redirect URI,
/// and Sign in with Apple JS (``AppleIDScript``) resolves or rejects `AppleID.auth.signIn()` with it.
///
/// ```json
/// {"type": "appleid-signin", "frame_id": "…", "data": {"authorization": {"code": "…", "id_token": "…", "state": "…"},
///  "user": {"email": "…", "name": {"firstName": "…", "lastName": "…"}}}}
/// {"type": "appleid-signin", "frame_id": "…", "error": {"error": "user_cancelled_authorize", "state": "…"}}
/// ```
struct WebMessage: Encodable, Sendable {
    /// The signed-in answer.
    struct SignedIn: Encodable, Sendable {
        struct Authorization: Encodable, Sendable {
            let code: String
            let idToken: String?
            let state: String?

            enum CodingKeys: String, CodingKey {
                case code
                case idToken = "id_token"
                case state
            }
        }

        let authorization: Authorization
        /// Only on the first authorization of the app by this Apple ID, with the requested scopes.
        let user: AuthorizationOutcome.UserInfo?
    }

    /// A refusal or a cancel: Apple's error code.
    struct Failure: Encodable, Sendable {
        let error: String
        let state: String?
    }

    /// Marks the message as ours among whatever else the opener receives.
    let type = "appleid-signin"
    /// The id the script put in the request, so it takes only the answer to the popup it opened.
    let frameID: String?
    let data: SignedIn?
    let error: Failure?

    enum CodingKeys: String, CodingKey {
        case type
        case frameID = "frame_id"
        case data
        case error
    }

    /// The longest `frame_id` accepted.
    static let maximumFrameIDLength = 128

    /// Whether `text` is an acceptable `frame_id`: 1–128 of `A-Z a-z 0-9 - _`.
    static func isValidFrameID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maximumFrameIDLength
            && text.utf8.allSatisfy {
                (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D || $0 == 0x5F
            }
    }

    /// The origin (`scheme://host[:port]`) `postMessage` targets for `redirectURI`, or `nil` when it is
    /// not an absolute http(s) URL. Never `*`.
    static func targetOrigin(of redirectURI: String) -> String? {
        guard let components = URLComponents(string: redirectURI), let scheme = components.scheme?.lowercased(),
            scheme == "https" || scheme == "http",
            let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let defaultPort = scheme == "https" ? 443 : 80
        if let port = components.port, port != defaultPort { return "\(scheme)://\(shownHost):\(port)" }
        return "\(scheme)://\(shownHost)"
    }

    /// The message as JSON text (sorted keys, so pages are stable).
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
