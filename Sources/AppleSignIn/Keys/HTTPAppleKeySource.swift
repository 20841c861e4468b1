import AsyncHTTPClient
import JuiceEncodings
import JuiceHTTP
import Logging
import NIOCore
import NIOHTTP1

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Fetches `{apple_base_url}/auth/keys` over HTTP(S).
public struct HTTPAppleKeySource: AppleKeySource {
    /// The JWKS URL, e.g. `https://appleid.apple.com/auth/keys`.
    public let url: String
    private let httpClient: HTTPClient
    private let timeout: Duration
    private let logger: Logger

    /// The largest JWKS document accepted.
    static let maximumBodySize = 256 * 1024

    /// Creates a source for `url`.
    /// - Parameters:
    ///   - url: The JWKS URL.
    ///   - httpClient: The HTTP client to use (one per process); it must not follow redirects. `nil` (the
    ///     default): the toolkit's process-wide client, which never does.
    ///   - timeout: Deadline for the whole request, head and body together.
    ///   - logger: Receives debug messages.
    public init(url: String, httpClient: HTTPClient? = nil, timeout: Duration = .seconds(10), logger: Logger = AppleSignInLogging.disabled) {
        self.url = url
        self.httpClient = httpClient ?? OutgoingHTTP.processClient
        self.timeout = timeout
        self.logger = logger
    }

    /// Creates a source for `{baseURL}/auth/keys`.
    public init(appleBaseURL: URL, httpClient: HTTPClient? = nil, logger: Logger = AppleSignInLogging.disabled) {
        self.init(url: appleBaseURL.appendingPathComponent("auth/keys").absoluteString, httpClient: httpClient, logger: logger)
    }

    /// Fetches the key set.
    /// - Throws: ``KeySetError`` when the endpoint cannot be reached within the deadline, answers anything
    ///   but `200` (a redirect included: it is never followed), or sends a body over 256 KiB or not a JWKS.
    public func fetchKeys() async throws -> FetchedKeys {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        logger.debug("fetching Apple signing keys", metadata: ["url": "\(url)"])
        // One deadline for the whole exchange (head and body), a bounded body, no redirects (a 3xx is refused).
        let response: BoundedResponse
        do {
            response = try await httpClient.boundedExecute(request, deadline: timeout, maximumBodySize: Self.maximumBodySize, logger: logger)
        } catch {
            // A short, secret-free reason: "connection refused", the deadline, a body over the limit.
            throw KeySetError(.unavailable, "\(url) gave no usable answer: \(error)")
        }
        guard response.status == .ok else {
            throw KeySetError(.unavailable, "\(url) answered HTTP \(response.status.code)")
        }
        let keySet = try JSONWebKeySet(jwks: response.body.readableBytesView)
        let maxAge = response.headers["Cache-Control"].lazy.compactMap(Self.maxAge(fromCacheControl:)).first
        return FetchedKeys(keySet: keySet, maxAge: maxAge)
    }

    /// Reads `max-age=N` from a `Cache-Control` header value; `no-store`/`no-cache` mean zero.
    static func maxAge(fromCacheControl value: String) -> Duration? {
        for directive in value.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingHorizontalSpace().lowercased() }
            if parts[0] == "no-store" || parts[0] == "no-cache" { return .zero }
            if parts[0] == "max-age", parts.count == 2, let seconds = Int64(parts[1].trimming { $0 == "\"" }),
                seconds >= 0
            {
                return .seconds(seconds)
            }
        }
        return nil
    }
}
