import AsyncHTTPClient
import NIOCore

/// The one place Juice builds an HTTP client for its outgoing requests (notification delivery, Apple's
/// token, keys, revoke and migration endpoints, the conformance kit's calls to a backend, the client's
/// calls to the server, the benchmarks).
///
/// Every client built here refuses to follow redirects: a 3xx is an answer, handed back to the caller
/// as it came. A client that follows them would re-send a request (and its body: a signed
/// notification, a client secret) to wherever a `Location` points, past the rules that vetted the first
/// URL (issue 40: a notification URL answering `307 Location: http://127.0.0.1:…`). No other file in
/// `Sources/` constructs an `HTTPClient` or names `HTTPClient.shared` (`OutgoingHTTPPolicyTests` reads
/// the sources to hold that).
///
/// ```swift
/// let client = OutgoingHTTP.makeClient()      // owned: shut it down with its component
/// let answer = try await client.boundedExecute(request, deadline: .seconds(10), maximumBodySize: 64 * 1024)
/// ```
package enum OutgoingHTTP {
    /// A client configuration with no redirects, a 10 s connect timeout and no connection retries,
    /// after `adjust` (timeouts, pool settings) has run.
    package static func configuration(_ adjust: (inout HTTPClient.Configuration) -> Void = { _ in }) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.timeout.connect = .seconds(10)
        // A refused connection is an answer too (reported at once), not something to retry until the
        // deadline: callers that retry do so with their own backoff.
        configuration.connectionPool.retryConnectionEstablishment = false
        adjust(&configuration)
        // Whatever `adjust` did, a redirect is never followed.
        configuration.redirectConfiguration = .disallow
        return configuration
    }

    /// A new client on the process's event loops, with no redirects; its owner shuts it down
    /// (`HTTPClientShutdownService` for a component that runs as a service).
    package static func makeClient(_ adjust: (inout HTTPClient.Configuration) -> Void = { _ in }) -> HTTPClient {
        HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration(adjust))
    }

    /// The process-wide client that library types use when they are given none (as `HTTPClient.shared`
    /// would be, but without redirects); it lives as long as the process and is never shut down.
    package static let processClient: HTTPClient = makeClient()
}
