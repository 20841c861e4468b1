import AsyncHTTPClient
import Foundation
import JuiceEncodings
import JuiceHTTP
import NIOCore
import NIOHTTP1

/// The benchmarks' HTTP calls: a JSON or form `POST` (or a `GET`) that must answer 200/201 with a JSON
/// object; anything else is a ``BenchSignInError`` of the step's kind, with the server's
/// `error: reason` when it gave one.
struct BenchHTTP: Sendable {
    let httpClient: HTTPClient

    /// `POST url` with `json` as the body, `Authorization: Bearer token` when a token is given.
    func post(_ url: String, json: [String: Any], bearer token: String? = nil, step: String) async throws(BenchSignInError) -> [String: Any] {
        let data: Data
        do {
            data = try JSONSerialization.data(withJSONObject: json)
        } catch {
            throw BenchSignInError(kind: step, "cannot encode the request")
        }
        return try await send(.POST, url, body: data, contentType: "application/json", bearer: token, step: step)
    }

    /// `POST url` with `form` as an `application/x-www-form-urlencoded` body.
    func post(_ url: String, form: [(String, String)], step: String) async throws(BenchSignInError) -> [String: Any] {
        let body = FormURLComponent.encode(fields: form)
        return try await send(.POST, url, body: Data(body.utf8), contentType: "application/x-www-form-urlencoded", bearer: nil, step: step)
    }

    private func send(
        _ method: HTTPMethod, _ url: String, body: Data, contentType: String, bearer token: String?, step: String
    ) async throws(BenchSignInError) -> [String: Any] {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Content-Type", value: contentType)
        request.headers.add(name: "Accept", value: "application/json")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        request.body = .bytes(ByteBuffer(bytes: body))
        let status: UInt
        let bytes: ByteBuffer
        do {
            let response = try await httpClient.boundedExecute(request, deadline: .seconds(30), maximumBodySize: 1024 * 1024)
            status = response.status.code
            bytes = response.body
        } catch {
            throw BenchSignInError(kind: step, "cannot reach \(url): \(error)")
        }
        let object = (try? JSONSerialization.jsonObject(with: Data(bytes.readableBytesView))) as? [String: Any]
        guard status == 200 || status == 201 else {
            let path = URL(string: url)?.path ?? url
            if status == 404 || status == 405 {
                throw BenchSignInError(
                    kind: step,
                    "\(url) answered HTTP \(status): it does not offer \(method.rawValue) \(path) (the benchmark needs the native sign-in API)")
            }
            let detail = [object?["error"] as? String, object?["reason"] as? String].compactMap { $0 }.joined(separator: ": ")
            throw BenchSignInError(
                kind: step, "\(method.rawValue) \(path) answered HTTP \(status)" + (detail.isEmpty ? "" : " (\(detail.prefix(200)))"))
        }
        guard let object else { throw BenchSignInError(kind: step, "\(method.rawValue) \(url) did not answer a JSON object") }
        return object
    }
}
