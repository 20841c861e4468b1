import Synchronization

/// The emulator's base URL and issuer.
///
/// With port 0 the base URL is known only once the server is bound: ``bind(port:)`` records it
/// (the composition root calls it from `onServerRunning`).
final class EmulatorAddress: Sendable {
    private let host: String
    private let publicURL: String?
    private let issuerOverride: String?
    private let boundPort: Mutex<Int?>

    init(host: String, port: Int, publicURL: String?, issuer: String?) {
        self.host = host
        self.publicURL = publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.issuerOverride = issuer
        self.boundPort = Mutex(port == 0 ? nil : port)
    }

    func bind(port: Int) {
        boundPort.withLock { $0 = port }
    }

    /// The URL the emulator is reached at, without a trailing slash.
    var baseURL: String {
        if let publicURL { return publicURL }
        let port = boundPort.withLock { $0 } ?? 0
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost):\(port)"
    }

    /// The `iss` of every token: the override (e.g. `https://appleid.apple.com`) or the base URL.
    var issuer: String {
        issuerOverride ?? baseURL
    }
}
