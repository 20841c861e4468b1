// Foundation, not FoundationEssentials: `DateFormatter`, which reads a cookie's `Expires` date (RFC 6265).
import Foundation
import JuiceEncodings

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
/// - `Path` is honoured (default: the directory of the request's path);
/// - `Domain` as RFC 6265 §5.2.3 and §5.3 say: a cookie whose `Domain` does not domain-match the host that
///   set it is dropped, as is one for a bare top-level name (a public suffix such as `com`; the kit knows no
///   public-suffix list beyond single labels) or for an IP address other than the host's own; without
///   `Domain` a cookie goes back to its host only, with it to that domain and its subdomains;
/// - the `__Secure-` and `__Host-` prefixes (RFC 6265bis §4.1.3): dropped without `Secure`, and a `__Host-`
///   cookie also with a `Domain` or a `Path` other than `/`.
///
/// Every cookie dropped is noted (``droppedNotes``), so a case that fails because the backend's session
/// cookie would never reach it in a browser says so.
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
        /// The host that set it (host-only) or the `Domain` it is for, lowercase, without a leading dot.
        let domain: String
        let hostOnly: Bool
        let path: String
        let sameSite: SameSite
    }

    /// Whether the backend's origin is a secure context (https or loopback).
    let secureContext: Bool
    /// The backend's host (lowercase, IPv6 without brackets): the host of a request when none is given.
    let host: String
    private var cookies: [Cookie] = []
    /// Why cookies were dropped, oldest first (at most ``maximumNotes``).
    private(set) var droppedNotes: [String] = []

    /// The most notes kept.
    static let maximumNotes = 8

    /// A jar for a backend on `host`.
    init(secureContext: Bool = true, host: String = "127.0.0.1") {
        self.secureContext = secureContext
        self.host = Self.canonicalHost(host)
    }

    /// A jar for the backend at `backend` (its host and whether it is a secure context).
    init(backend: URL?) {
        self.init(secureContext: backend.map(Self.isSecureContext) ?? false, host: backend?.host ?? "")
    }

    /// `text` followed by why cookies were dropped, if any were: what a refused case's detail says.
    func explaining(_ text: String) -> String {
        droppedNotes.isEmpty ? text : text + "; a browser would have dropped: " + droppedNotes.joined(separator: "; ")
    }

    /// Whether `url` is a secure context for cookies: https, or http on a loopback host.
    static func isSecureContext(_ url: URL) -> Bool {
        if url.scheme?.lowercased() == "https" { return true }
        return ["127.0.0.1", "localhost", "::1", "[::1]"].contains(url.host?.lowercased() ?? "")
    }

    /// Stores the cookies of `Set-Cookie` header values of an answer to `requestPath` on `requestHost`
    /// (the backend's host by default); `Max-Age=0` (or an empty value) removes one.
    mutating func take(_ setCookies: [String], requestPath: String = "/", requestHost: String? = nil) {
        let setter = requestHost.map(Self.canonicalHost) ?? host
        for header in setCookies {
            let parts = header.split(separator: ";").map { $0.trimmingHorizontalSpace() }
            guard let pair = parts.first, let equals = pair.firstIndex(of: "="), equals != pair.startIndex else { continue }
            let name = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...]).trimming { $0 == "\"" }
            var attributes: [String: String] = [:]
            for attribute in parts.dropFirst() {
                let split = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    .map { $0.trimmingHorizontalSpace() }
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
            let domainAttribute = attributes["domain"].map(Self.canonicalDomainAttribute) ?? ""
            if let problem = Self.prefixProblem(name: name, secure: secure, domainAttribute: domainAttribute, path: attributes["path"]) {
                note("\(name.prefix(64)): \(problem)")
                continue
            }
            var domain = setter
            var hostOnly = true
            if !domainAttribute.isEmpty && domainAttribute != setter {
                guard Self.domainMatches(setter, domainAttribute) else {
                    note("\(name.prefix(64)): Domain=\(domainAttribute.prefix(64)) does not domain-match \(setter.prefix(64)), the host that set it")
                    continue
                }
                guard domainAttribute.contains(".") else {
                    note("\(name.prefix(64)): Domain=\(domainAttribute.prefix(64)) is a public suffix")
                    continue
                }
                domain = domainAttribute
                hostOnly = false
            }
            cookies.removeAll { $0.name == name && $0.domain == domain && $0.path == path }
            let maxAge = attributes["max-age"].flatMap { Int($0) }
            let expired = (maxAge.map { $0 <= 0 } ?? false) || Self.isPast(attributes["expires"])
            if value.isEmpty || expired { continue }
            cookies.append(Cookie(name: name, value: value, domain: domain, hostOnly: hostOnly, path: path, sameSite: sameSite))
        }
    }

    private mutating func note(_ text: String) {
        if droppedNotes.count < Self.maximumNotes { droppedNotes.append(text) }
    }

    /// The `Cookie` header for a request to `path` on `host` (the backend's host by default) in `context`,
    /// or `nil` when no cookie goes.
    func header(path: String = "/", host: String? = nil, _ context: Context) -> String? {
        let target = host.map(Self.canonicalHost) ?? self.host
        let sent = cookies.filter { cookie in
            // A `Secure` cookie is only ever kept in a secure context (``take(_:requestPath:requestHost:)``).
            guard cookie.hostOnly ? cookie.domain == target : Self.domainMatches(target, cookie.domain) else { return false }
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

    /// RFC 6265 §5.1.3 domain-match: `host` is `domain`, or ends with `.` + `domain` and is a name, not an
    /// IP address.
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        if host == domain { return true }
        guard !domain.isEmpty, host.hasSuffix("." + domain) else { return false }
        return !isIPAddress(host)
    }

    /// Whether `host` is an IPv4 or IPv6 address (IPv6 written without brackets).
    private static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in UInt8(part) != nil }
    }

    /// A host as cookies compare it: lowercase, IPv6 without brackets.
    private static func canonicalHost(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }

    /// A `Domain` attribute's value as RFC 6265 §5.2.3 reads it: without a leading dot, lowercase.
    private static func canonicalDomainAttribute(_ value: String) -> String {
        canonicalHost(value.hasPrefix(".") ? String(value.dropFirst()) : value)
    }

    /// Why a browser drops a `__Secure-` or `__Host-` cookie (RFC 6265bis §4.1.3), or `nil`.
    private static func prefixProblem(name: String, secure: Bool, domainAttribute: String, path: String?) -> String? {
        let lowered = name.lowercased()
        if lowered.hasPrefix("__secure-") && !secure { return "a __Secure- cookie without Secure" }
        guard lowered.hasPrefix("__host-") else { return nil }
        if !secure { return "a __Host- cookie without Secure" }
        if !domainAttribute.isEmpty { return "a __Host- cookie with a Domain" }
        if path != "/" { return "a __Host- cookie without Path=/" }
        return nil
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
