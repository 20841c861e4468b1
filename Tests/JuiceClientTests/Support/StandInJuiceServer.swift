import Crypto
import Foundation
import Hummingbird
import JuiceClient
import Logging
import NIOCore
import Synchronization

/// A stand-in for the Juice server's native API and native relay (issue 5), with the documented paths
/// and shapes, until the real server exists: `POST /api/auth/nonce`, `GET /auth/apple/native` (answers
/// as Apple would, by redirecting to the loopback URI with `code`, `id_token`, `state`, `user`),
/// `POST /api/auth/apple` (checks the nonce contract), `POST /api/auth/password`,
/// `GET /api/credential-state`.
final class StandInJuiceServer: Sendable {
    /// How the relay answers.
    enum RelayAnswer: Sendable {
        case success
        case cancel
        case wrongState
        case appleError(String)
        case noIdentityToken
    }

    struct State: Sendable {
        var relayAnswer = RelayAnswer.success
        var credentialState = "authorized"
        var issuedNonces: Set<String> = []
        var sessions: [String: String] = [:]
        var nextID = 1
        var relayQueries: [[String: String]] = []
        var appleSignIns: [JSONBody] = []
    }

    struct JSONBody: Sendable, Codable, Hashable {
        var identityToken: String
        var authorizationCode: String?
        var nonce: String
        var fullName: JuiceAccount.Name?
        var email: String?
    }

    let state = Mutex(State())
    let subject = "001872.a22fc8cc2d0a4d0bacaf109007e19351.0650"

    /// Runs the server on a free loopback port for the duration of `body`.
    func run<T: Sendable>(_ body: @Sendable (URL) async throws -> T) async throws -> T {
        let (ports, sink) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { sink.yield($0.localAddress?.port ?? 0) },
            logger: Logger(label: "stand-in-juice-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await app.runService(gracefulShutdownSignals: [])
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            defer { group.cancelAll() }
            return try await body(URL(string: "http://127.0.0.1:\(port)")!)
        }
    }

    private func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/api/auth/nonce") { _, _ -> Response in
            let nonce = self.state.withLock { state in
                defer { state.nextID += 1 }
                let nonce = "raw-nonce-\(state.nextID)"
                state.issuedNonces.insert(nonce)
                return nonce
            }
            return Self.json(.ok, ["nonce": nonce])
        }
        router.get("/auth/apple/native") { request, _ -> Response in
            let query = Dictionary(request.uri.queryParameters.map { (String($0.key), String($0.value)) }, uniquingKeysWith: { first, _ in first })
            let answer = self.state.withLock { state in
                state.relayQueries.append(query)
                return state.relayAnswer
            }
            guard let redirect = query["redirect_uri"], redirect.hasPrefix("http://127.0.0.1:"), let state = query["state"] else {
                return Self.json(.badRequest, ["error": "invalid_request", "reason": "redirect_uri must be a loopback URI"])
            }
            var fields: [(String, String)]
            switch answer {
            case .success, .wrongState, .noIdentityToken:
                fields = [("code", "c0de.\(UUID().uuidString)")]
                if case .noIdentityToken = answer {} else {
                    fields.append(("id_token", Self.identityToken(subject: self.subject, nonce: query["nonce"])))
                }
                fields.append(("state", { if case .wrongState = answer { "forged-state" } else { state } }()))
                fields.append(("user", #"{"name":{"firstName":"Alice","lastName":"Appleseed"},"email":"alice@privaterelay.appleid.com"}"#))
            case .cancel:
                fields = [("error", "user_cancelled_authorize"), ("state", state)]
            case .appleError(let error):
                fields = [("error", error), ("state", state)]
            }
            let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
            let answerQuery = fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)" }.joined(separator: "&")
            return Response(status: .found, headers: [.location: redirect + "?" + answerQuery])
        }
        router.post("/api/auth/apple") { request, context -> Response in
            guard let body = try? await request.decode(as: JSONBody.self, context: context) else {
                return Self.json(.badRequest, ["error": "invalid_request", "reason": "malformed JSON"])
            }
            let payload = Self.claims(of: body.identityToken)
            let hashed = Nonce.sha256Hex(body.nonce)
            let token: String? = self.state.withLock { state in
                state.appleSignIns.append(body)
                guard payload?["nonce"] as? String == hashed, state.issuedNonces.remove(body.nonce) != nil else { return nil }
                let token = "session-\(state.nextID)"
                state.nextID += 1
                state.sessions[token] = payload?["sub"] as? String
                return token
            }
            guard let token else { return Self.json(.badRequest, ["error": "invalid_nonce", "reason": "the nonce is unknown, used or does not match"]) }
            return Self.json(.ok, [
                "token": token,
                "account": ["id": "acc-1", "user": payload?["sub"] as? String ?? "", "name": ["givenName": "Alice", "familyName": "Appleseed"],
                            "email": "alice@privaterelay.appleid.com", "isPrivateEmail": true, "realUserStatus": "likelyReal"],
            ])
        }
        router.post("/api/auth/password") { request, context -> Response in
            let body = try? await request.decode(as: [String: String].self, context: context)
            guard body?["username"] == "alice", body?["password"] == "correct horse" else {
                return Self.json(.unauthorized, ["error": "invalid_credentials", "reason": "wrong username or password"])
            }
            let token = self.state.withLock { state in
                defer { state.nextID += 1 }
                state.sessions["session-\(state.nextID)"] = ""
                return "session-\(state.nextID)"
            }
            return Self.json(.ok, ["token": token, "account": ["id": "acc-2", "username": "alice"]])
        }
        router.get("/api/credential-state") { request, _ -> Response in
            let bearer = request.headers[.authorization].map { String($0.dropFirst("Bearer ".count)) }
            let answer: String? = self.state.withLock { state in
                bearer.flatMap { state.sessions[$0] }.map { _ in state.credentialState }
            }
            guard let answer else { return Self.json(.unauthorized, ["error": "unauthorized", "reason": "a valid bearer token is required"]) }
            return answer == "garbage" ? Self.json(.ok, ["state": "maybe"]) : Self.json(.ok, ["state": answer])
        }
        router.get("/api/me") { _, _ -> Response in
            Response(status: .internalServerError, headers: [.contentType: "text/html"], body: .init(byteBuffer: ByteBuffer(string: "<h1>oops</h1>")))
        }
        return router
    }

    static func json(_ status: HTTPResponse.Status, _ object: [String: Any]) -> Response {
        let data = try! JSONSerialization.data(withJSONObject: object)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// An unsigned identity token: the client reads it without verifying, as a device does.
    static func identityToken(subject: String, nonce: String?) -> String {
        var claims: [String: Any] = ["iss": "https://appleid.apple.com", "aud": "com.example.juice", "sub": subject, "real_user_status": 2]
        if let nonce { claims["nonce"] = nonce }
        func encode(_ object: [String: Any]) -> String {
            try! JSONSerialization.data(withJSONObject: object).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return encode(["alg": "RS256", "kid": "test"]) + "." + encode(claims) + ".c2lnbmF0dXJl"
    }

    static func claims(of token: String) -> [String: Any]? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }
}
