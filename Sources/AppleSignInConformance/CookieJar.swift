import Foundation

/// A browser's cookies for the backend during one case, sent as a current browser sends them:
///
/// - no `SameSite` attribute counts as `Lax` (Chromium's default; its temporary "Lax+POST"
///   two-minute exception is not played);
/// - Apple's cross-site form_post carries only `SameSite=None; Secure` cookies;
/// - a top-level GET navigation that a cross-site request started (a redirect after the form_post)
///   carries `Lax` and `None` cookies, never `Strict` ones;
/// - a same-site request (the start, its form, the probe) carries all;
/// - `SameSite=None` without `Secure` is refused when set, as Chromium and Firefox do;
/// - `Secure` cookies are kept and sent only in a secure context: https, or loopback http
///   (`127.0.0.1`, `localhost`, `[::1]`), which browsers treat as potentially trustworthy;
/// - `Path` is honoured (default: the directory of the request's path).
struct CookieJar: Sendable {
    /// What kind of request a cookie header is for.
    enum Context: Sendable {
        /// A request from the backend's own pages, or the person typing its URL.
        case sameSite
        /// A top-level GET navigation started cross-site (the redirect after Apple's form_post).
        case crossSiteNavigation
        /// Apple's cross-site POST.
        case crossSitePost
    }

    private enum SameSite: Sendable {
        case strict, lax, none
    }

    private struct Cookie: Sendable {
        let name: String
        let value: String
        let path: String
        let sameSite: SameSite
    }

    /// Whether the backend's origin is a secure context (https or loopback).
    let secureContext: Bool
    private var cookies: [Cookie] = []

    init(secureContext: Bool = true) {
        self.secureContext = secureContext
    }

    /// Whether `url` is a secure context for cookies: https, or http on a loopback host.
    static func isSecureContext(_ url: URL) -> Bool {
        if url.scheme?.lowercased() == "https" { return true }
        return ["127.0.0.1", "localhost", "::1", "[::1]"].contains(url.host?.lowercased() ?? "")
    }

    /// Stores the cookies of `Set-Cookie` header values of an answer to `requestPath`; `Max-Age=0`
    /// (or an empty value) removes one.
    mutating func take(_ setCookies: [String], requestPath: String = "/") {
        for header in setCookies {
            let parts = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let pair = parts.first, let equals = pair.firstIndex(of: "="), equals != pair.startIndex else { continue }
            let name = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            var attributes: [String: String] = [:]
            for attribute in parts.dropFirst() {
                let split = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                guard let key = split.first, !key.isEmpty else { continue }
                attributes[key.lowercased()] = split.count > 1 ? split[1] : ""
            }
            let secure = attributes["secure"] != nil
            let sameSite: SameSite =
                switch attributes["samesite"]?.lowercased() {
                case "strict": .strict
                case "none": .none
                default: .lax
                }
            if secure && !secureContext { continue }
            if sameSite == .none && !secure { continue }
            let path = attributes["path"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? Self.defaultPath(requestPath)
            cookies.removeAll { $0.name == name && $0.path == path }
            let maxAge = attributes["max-age"].flatMap { Int($0) }
            let expired = (maxAge.map { $0 <= 0 } ?? false) || Self.isPast(attributes["expires"])
            if value.isEmpty || expired { continue }
            cookies.append(Cookie(name: name, value: value, path: path, sameSite: sameSite))
        }
    }

    /// The `Cookie` header for a request to `path` in `context`, or `nil` when no cookie goes.
    func header(path: String = "/", _ context: Context) -> String? {
        let sent = cookies.filter { cookie in
            // A `Secure` cookie is only ever kept in a secure context (``take(_:requestPath:)``).
            guard Self.pathMatches(path, cookie.path) else { return false }
            switch context {
            case .sameSite: return true
            case .crossSiteNavigation: return cookie.sameSite != .strict
            case .crossSitePost: return cookie.sameSite == .none
            }
        }
        // Longer paths first, as browsers order them.
        let ordered = sent.enumerated().sorted { ($0.element.path.count, -$0.offset) > ($1.element.path.count, -$1.offset) }.map(\.element)
        return ordered.isEmpty ? nil : ordered.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// RFC 6265 §5.1.4 path-match.
    private static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }

    /// RFC 6265 §5.1.4 default-path.
    private static func defaultPath(_ requestPath: String) -> String {
        guard requestPath.hasPrefix("/"), let last = requestPath.lastIndex(of: "/"), last != requestPath.startIndex else { return "/" }
        return String(requestPath[..<last])
    }

    /// Whether an `Expires` date (RFC 1123, as servers send it) has passed; an unreadable one has not.
    private static func isPast(_ expires: String?) -> Bool {
        guard let expires else { return false }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: expires) else { return false }
        return date < Date()
    }
}
