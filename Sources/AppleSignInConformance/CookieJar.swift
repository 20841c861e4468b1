import Foundation

/// A browser's cookies for the backend during one case, and which of them a current browser sends
/// with Apple's cross-site form_post: only `SameSite=None; Secure` cookies (no attribute means Lax).
struct CookieJar: Sendable {
    private struct Cookie: Sendable {
        let value: String
        let crossSite: Bool
    }

    private var cookies: [(name: String, cookie: Cookie)] = []

    /// Stores the cookies of `Set-Cookie` header values; `Max-Age=0` (or an empty value) removes one.
    mutating func take(_ setCookies: [String]) {
        for header in setCookies {
            let parts = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            let attributes = parts.dropFirst().map { $0.lowercased() }
            cookies.removeAll { $0.name == name }
            if value.isEmpty || attributes.contains("max-age=0") || attributes.contains(where: { $0.hasPrefix("max-age=-") }) { continue }
            let crossSite = attributes.contains("samesite=none") && attributes.contains("secure")
            cookies.append((name, Cookie(value: value, crossSite: crossSite)))
        }
    }

    /// The `Cookie` header for a request: a cross-site one carries only `SameSite=None; Secure` cookies.
    func header(crossSite: Bool) -> String? {
        let sent = cookies.filter { !crossSite || $0.cookie.crossSite }.map { "\($0.name)=\($0.cookie.value)" }
        return sent.isEmpty ? nil : sent.joined(separator: "; ")
    }
}
