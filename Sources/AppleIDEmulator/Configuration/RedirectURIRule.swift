#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Apple's rules for redirect URIs (and, here, notification URLs): absolute https, a domain name
/// (no IP address, no `localhost`), no fragment, no user info. With `allow_local_redirects`, `http`,
/// `localhost` and loopback addresses are accepted too (local development only).
enum RedirectURIRule {
    /// What is wrong with `text`, or `nil` when it is acceptable.
    static func problem(with text: String, allowLocal: Bool) -> String? {
        let shown = EmulatorConfiguration.quoted(text)
        guard text.utf8.count <= 2048, let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty
        else {
            return "\(shown) is not an absolute URL"
        }
        if components.fragment != nil { return "\(shown) must not have a fragment" }
        if components.user != nil || components.password != nil { return "\(shown) must not carry user info" }
        let isLocalHost = host == "localhost" || host.hasSuffix(".localhost") || host == "127.0.0.1" || host == "[::1]" || host == "::1"
        switch scheme {
        case "https": break
        case "http":
            if !allowLocal { return "\(shown) must use https (or set allow_local_redirects for local development)" }
        default:
            return "\(shown) must use https"
        }
        if isLocalHost {
            return allowLocal ? nil : "\(shown) must not be localhost or a loopback address (or set allow_local_redirects for local development)"
        }
        let isIPAddress = host.contains(":") || host.split(separator: ".").allSatisfy { Int($0) != nil }
        if isIPAddress { return "\(shown) must use a domain name, not an IP address" }
        if !EmulatorConfiguration.isDomain(host) { return "\(shown) must use a domain name" }
        return nil
    }
}
