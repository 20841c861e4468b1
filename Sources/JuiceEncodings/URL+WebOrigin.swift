#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension URL {
    /// The origin a browser sends in `Origin` for this URL: `scheme://host[:port]`, lowercase; `nil`
    /// without a scheme or a host.
    package var webOrigin: String? {
        guard let scheme = scheme?.lowercased(), let host = host?.lowercased(), !host.isEmpty else { return nil }
        return "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
    }
}
