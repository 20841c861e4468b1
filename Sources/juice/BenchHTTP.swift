import AsyncHTTPClient
import Foundation
import JuiceEncodings
import JuiceHTTP
import NIOCore
import NIOHTTP1

/// The benchmarks' HTTP calls: a `POST` of a JSON or form body that must answer 200/201 with the JSON
/// object the step expects (decoded into `Answer`); anything else is a ``BenchSignInError`` of the
/// step's kind, with the server's `error: reason` when it gave one.
///
/// A run sends the same few requests thousands of times, so what does not change between them is built
/// once: the URL and headers (``BenchEndpoint``), and the bodies where they are constant.
struct BenchHTTP: Sendable {
    let httpClient: HTTPClient

    /// `POST` `endpoint` with `body` (already encoded as the endpoint's content type), `Authorization:
    /// Bearer token` when a token is given; the answer decoded as `Answer`.
    func post<Answer: Decodable>(
        _ endpoint: BenchEndpoint, body: ByteBuffer, bearer token: String? = nil, step: String, answer: Answer.Type
    ) async throws(BenchSignInError) -> Answer {
        var request = HTTPClientRequest(url: endpoint.url)
        request.method = .POST
        request.headers = endpoint.headers
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        request.body = .bytes(body)
        let status: UInt
        let bytes: ByteBuffer
        do {
            let response = try await httpClient.boundedExecute(request, deadline: .seconds(30), maximumBodySize: 1024 * 1024)
            status = response.status.code
            bytes = response.body
        } catch {
            throw BenchSignInError(kind: step, "cannot reach \(endpoint.url): \(error)")
        }
        guard status == 200 || status == 201 else { throw refusal(endpoint, status: status, body: bytes, step: step) }
        do {
            return try JSONDecoder().decode(Answer.self, from: Data(bytes.readableBytesView))
        } catch {
            throw BenchSignInError(kind: step, "POST \(endpoint.url) did not answer the expected JSON object")
        }
    }

    /// `POST url` with `json` encoded as the body.
    func post<Answer: Decodable>(
        _ url: String, json: some Encodable, bearer token: String? = nil, step: String, answer: Answer.Type
    ) async throws(BenchSignInError) -> Answer {
        let body: ByteBuffer
        do {
            body = ByteBuffer(bytes: try JSONEncoder().encode(json))
        } catch {
            throw BenchSignInError(kind: step, "cannot encode the request")
        }
        return try await post(BenchEndpoint(json: url), body: body, bearer: token, step: step, answer: answer)
    }

    /// The error of an answer other than 200/201: a missing endpoint said plainly, else the status and
    /// the server's `error: reason`.
    private func refusal(_ endpoint: BenchEndpoint, status: UInt, body: ByteBuffer, step: String) -> BenchSignInError {
        let path = URL(string: endpoint.url)?.path ?? endpoint.url
        if status == 404 || status == 405 {
            return BenchSignInError(
                kind: step,
                "\(endpoint.url) answered HTTP \(status): it does not offer POST \(path) (the benchmark needs the native sign-in API)")
        }
        let refusal = try? JSONDecoder().decode(BenchRefusal.self, from: Data(body.readableBytesView))
        // The server's words reach the terminal: cut, then escaped by scalar (terminalEscaped).
        let detail = String([refusal?.error, refusal?.reason].compactMap { $0 }.joined(separator: ": ").prefix(200)).terminalEscaped
        return BenchSignInError(kind: step, "POST \(path) answered HTTP \(status)" + (detail.isEmpty ? "" : " (\(detail))"))
    }
}

/// A URL the benchmarks post to, with its headers (content type, `Accept: application/json`), built once.
struct BenchEndpoint: Sendable {
    let url: String
    let headers: HTTPHeaders

    /// An endpoint taking a JSON body.
    init(json url: String) {
        self.init(url: url, contentType: "application/json")
    }

    /// An endpoint taking an `application/x-www-form-urlencoded` body.
    init(form url: String) {
        self.init(url: url, contentType: "application/x-www-form-urlencoded")
    }

    private init(url: String, contentType: String) {
        self.url = url
        headers = ["Content-Type": contentType, "Accept": "application/json"]
    }
}

/// A server's error answer, `{"error": code, "reason": text}` (either may be absent or of another type).
private struct BenchRefusal: Decodable {
    let error: String?
    let reason: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        error = try? container.decodeIfPresent(String.self, forKey: .error)
        reason = try? container.decodeIfPresent(String.self, forKey: .reason)
    }

    private enum CodingKeys: String, CodingKey {
        case error, reason
    }
}
