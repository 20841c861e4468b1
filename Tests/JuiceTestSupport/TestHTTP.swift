import AsyncHTTPClient
import Foundation
import JuiceEncodings
import NIOCore
import NIOHTTP1

/// The tests' one HTTP helper: a request over AsyncHTTPClient, answered whole as an ``HTTPResult``
/// (status, headers, body). A target is a path of ``baseURL`` or an absolute URL.
///
/// Requests go through ``pool`` unless given a client: a pool that never follows redirects (tests read
/// each one). A test that stops and restarts a server on the same port runs in ``withFreshPool(_:)``, so
/// no connection pooled to the stopped server is reused.
package struct TestHTTP: Sendable {
    /// The pool requests go through by default: a running stack's own (``withFreshPool(_:)``), else
    /// ``noRedirects``.
    @TaskLocal package static var pool: HTTPClient = noRedirects

    /// The pool outside ``withFreshPool(_:)``.
    package static let noRedirects = makePool()

    /// A pool that never follows redirects.
    package static func makePool() -> HTTPClient {
        HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
    }

    /// Runs `body` with ``pool`` set to a pool of its own, shut down afterwards (also when `body` throws).
    package static func withFreshPool<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let fresh = makePool()
        return try await withCleanup {
            try await $pool.withValue(fresh) { try await body() }
        } cleanup: {
            try? await fresh.shutdown()
        }
    }

    /// Prefixed to a target that is not an absolute URL.
    package let baseURL: String
    /// Sent with every request, before the request's own.
    package let headers: [(String, String)]
    package let client: HTTPClient
    /// How long a request may take, head and body. Generous: a loopback answer takes milliseconds, but a
    /// 2-core machine running builds beside the suite can stall the test process for tens of seconds; a
    /// hung server still fails.
    package let timeout: Duration

    package init(baseURL: String = "", headers: [(String, String)] = [], client: HTTPClient = pool, timeout: Duration = .seconds(90)) {
        self.baseURL = baseURL
        self.headers = headers
        self.client = client
        self.timeout = timeout
    }

    package func get(_ target: String, headers: [(String, String)] = []) async throws -> HTTPResult {
        try await send(.GET, target, headers: headers)
    }

    /// POSTs `fields` as `application/x-www-form-urlencoded`.
    package func postForm(_ target: String, _ fields: [(String, String)], headers: [(String, String)] = []) async throws -> HTTPResult {
        try await send(
            .POST, target, headers: [("Content-Type", "application/x-www-form-urlencoded")] + headers,
            body: Array(FormURLComponent.encode(fields: fields).utf8))
    }

    /// POSTs `object` as `application/json`.
    package func postJSON(_ target: String, _ object: [String: Any], headers: [(String, String)] = []) async throws -> HTTPResult {
        let body = try JSONSerialization.data(withJSONObject: object)
        return try await send(.POST, target, headers: [("Content-Type", "application/json")] + headers, body: Array(body))
    }

    /// POSTs `json` (already JSON text, possibly malformed on purpose) with exactly `headers`.
    package func post(_ target: String, json: String, headers: [(String, String)]) async throws -> HTTPResult {
        try await send(.POST, target, headers: headers, body: Array(json.utf8))
    }

    /// One request, answered whole (up to 4 MiB of body).
    package func send(_ method: HTTPMethod, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil) async throws -> HTTPResult {
        var request = HTTPClientRequest(url: url(target))
        request.method = method
        for (name, value) in self.headers + headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(request, timeout: TimeAmount(timeout))
        let bytes = try await response.body.collect(upTo: 4 * 1024 * 1024)
        return HTTPResult(status: Int(response.status.code), headers: response.headers, body: String(buffer: bytes))
    }

    /// `target` if it is an absolute URL, else ``baseURL`` followed by it.
    package func url(_ target: String) -> String {
        target.hasPrefix("http://") || target.hasPrefix("https://") ? target : baseURL + target
    }
}
