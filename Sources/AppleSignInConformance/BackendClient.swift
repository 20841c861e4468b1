import AsyncHTTPClient
import JuiceHTTP
import NIOCore
import NIOHTTP1

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// HTTP to the backend under test, as a browser or app would send it; redirects are not followed.
struct BackendClient: Sendable {
    /// One answer.
    struct Answer: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let body: String

        var location: String? { headers.first(name: "location") }
        var setCookies: [String] { headers["set-cookie"] }
    }

    /// Why no answer came.
    enum Failure: Error, Sendable {
        case timeout
        case unreachable(String)
    }

    let http: HTTPClient
    let timeout: Duration
    /// Sent as `Origin` on the form_post, as Apple's page does.
    let appleOrigin: String

    /// The same client with another per-request deadline.
    func waiting(_ timeout: Duration) -> BackendClient {
        BackendClient(http: http, timeout: timeout, appleOrigin: appleOrigin)
    }

    func get(_ url: String, cookies: String? = nil) async throws(Failure) -> Answer {
        try await send(url, method: .GET, headers: cookies.map { [("Cookie", $0)] } ?? [], body: nil)
    }

    /// A form POST; `origin` is the page that submits it (default: Apple's, for the form_post).
    func postForm(_ url: String, _ fields: [(String, String)], cookies: String?, origin: String? = nil) async throws(Failure) -> Answer {
        var headers = [("Content-Type", "application/x-www-form-urlencoded"), ("Origin", origin ?? appleOrigin)]
        if let cookies { headers.append(("Cookie", cookies)) }
        return try await send(url, method: .POST, headers: headers, body: FormBody.encode(fields))
    }

    func postJSON(_ url: String, _ body: Data, cookies: String? = nil) async throws(Failure) -> Answer {
        var headers = [("Content-Type", "application/json")]
        if let cookies { headers.append(("Cookie", cookies)) }
        return try await send(url, method: .POST, headers: headers, body: String(decoding: body, as: UTF8.self))
    }

    /// The per-request deadline, clamped to between 1 ms and one hour.
    private var deadline: Duration {
        min(max(timeout, .milliseconds(1)), .seconds(3600))
    }

    private func send(_ url: String, method: HTTPMethod, headers: [(String, String)], body: String?) async throws(Failure) -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        do {
            // One deadline for the whole exchange (head and body) and a bounded body.
            let response = try await http.boundedExecute(request, deadline: deadline, maximumBodySize: 1 << 20)
            return Answer(status: Int(response.status.code), headers: response.headers, body: String(buffer: response.body))
        } catch .deadlineExceeded, .connectTimeout {
            throw .timeout
        } catch {
            throw .unreachable(error.description)
        }
    }
}
