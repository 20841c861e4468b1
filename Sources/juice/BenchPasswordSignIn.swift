import AppleSignIn
import AsyncHTTPClient
import Foundation
import JuiceEncodings
import NIOCore

/// The measurement behind `juice bench signin --method password`: one account made with
/// `POST /api/accounts` before the clock starts, then `POST /api/auth/password` per sign-in. A
/// password sign-in is one request, so `--server-only` measures the same thing.
struct BenchPasswordSignIn: Sendable {
    let server: String
    /// A fresh username and password each run (`bench-` and 12 hex digits; 32 random bytes).
    let username: String
    let password: String

    init(server: String) {
        self.server = server
        username = "bench-" + (0..<6).map { _ in UInt8.random(in: .min ... .max) }.hexString
        password = Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max) })
    }

    /// Makes the account (`POST /api/accounts`); returns its session token.
    func signUp(httpClient: HTTPClient) async throws(BenchSignInError) -> String {
        let answer = try await BenchHTTP(httpClient: httpClient).post(
            server + "/api/accounts", json: ["username": username, "password": password], step: "signup", answer: BenchSessionAnswer.self)
        return answer.token
    }

    /// Makes the account, then `count` sign-ins by `concurrency` workers.
    func run(count: Int, concurrency: Int, httpClient: HTTPClient) async throws -> JSONValue {
        let http = BenchHTTP(httpClient: httpClient)
        _ = try await signUp(httpClient: httpClient)
        let endpoint = BenchEndpoint(json: server + "/api/auth/password")
        let body = ByteBuffer(bytes: try JSONEncoder().encode(["username": username, "password": password]))
        let timed = try await BenchSignIn.drive(count: count, concurrency: concurrency, label: "sign-ins") {
            (_: Int) async throws(BenchSignInError) in
            _ = try await http.post(endpoint, body: body, step: "password", answer: BenchSessionAnswer.self)
        }
        return BenchSignIn.report(
            timed,
            fields: [
                "method": .string(BenchMethod.password.rawValue), "mode": .string("complete"), "server": .string(server),
                "count": .integer(Int64(count)), "concurrency": .integer(Int64(concurrency)),
            ])
    }
}
