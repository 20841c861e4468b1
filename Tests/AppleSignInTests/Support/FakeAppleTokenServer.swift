import Crypto
import Foundation
import Hummingbird
import JuiceEncodings
import Synchronization

@testable import AppleSignIn

/// Apple's token, revoke and migration endpoints as a real HTTP server that checks what it receives:
/// the form fields, and the client secret's ES256 signature and claims. It answers with Apple's
/// documented success and error bodies.
final class FakeAppleTokenServer: Sendable {
    struct Received: Sendable {
        var path: String
        var fields: [String: String]
        var authorization: String?
    }

    private struct State {
        var received: [Received] = []
        var failuresBeforeSuccess = 0
        var delay: Duration = .zero
    }

    static let validCode = "c0de.valid.code"
    static let validRefreshToken = "r.valid.refresh"
    static let teamID = "ABCDE12345"
    static let keyID = "KEY1234567"

    private let state = Mutex(State())
    private let teamKey: P256.Signing.PublicKey

    init(teamKey: P256.Signing.PublicKey = TestKeys.team.publicKey) {
        self.teamKey = teamKey
    }

    var received: [Received] { state.withLock { $0.received } }

    /// The next `count` requests fail with 503.
    func failNext(_ count: Int) { state.withLock { $0.failuresBeforeSuccess = count } }
    /// Every answer waits this long.
    func delayAnswers(by delay: Duration) { state.withLock { $0.delay = delay } }

    var router: Router<BasicRequestContext> {
        let router = Router()
        for path in ["auth/token", "auth/revoke", "auth/usermigrationinfo"] {
            router.post(RouterPath(path)) { request, context -> Response in
                try await self.answer(path: path, request: request, context: context)
            }
        }
        return router
    }

    private func json(_ status: HTTPResponse.Status, _ value: JSONValue) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json;charset=UTF-8"], body: .init(byteBuffer: ByteBuffer(string: value.jsonString()))
        )
    }

    private func error(_ code: String, _ description: String? = nil) -> Response {
        var body: [String: JSONValue] = ["error": .string(code)]
        if let description { body["error_description"] = .string(description) }
        return json(.badRequest, .object(body))
    }

    private func answer(path: String, request: Request, context: BasicRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024)
        guard request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true,
            let pairs = FormURLEncoding.decode(String(buffer: body))
        else { return error("invalid_request") }
        let fields = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        let (fail, delay) = state.withLock { state in
            state.received.append(Received(path: path, fields: fields, authorization: request.headers[.authorization]))
            defer { if state.failuresBeforeSuccess > 0 { state.failuresBeforeSuccess -= 1 } }
            return (state.failuresBeforeSuccess > 0, state.delay)
        }
        if delay > .zero { try await Task.sleep(for: delay) }
        // Apple's outages answer 503 with an OAuth-shaped body.
        if fail { return json(.serviceUnavailable, .object(["error": .string("server_error")])) }

        guard let clientID = fields["client_id"], let secret = fields["client_secret"] else { return error("invalid_request") }
        guard clientSecretIsValid(secret, clientID: clientID) else { return error("invalid_client") }

        switch (path, fields["grant_type"]) {
        case ("auth/token", "authorization_code"):
            guard fields["code"] == Self.validCode else { return error("invalid_grant", "The code has expired or has been revoked.") }
            return json(
                .ok,
                .object([
                    "access_token": .string("a.access"), "token_type": .string("Bearer"), "expires_in": .integer(3600),
                    "refresh_token": .string(Self.validRefreshToken), "id_token": .string("eyJ.id.token"),
                ]))
        case ("auth/token", "refresh_token"):
            guard fields["refresh_token"] == Self.validRefreshToken else { return error("invalid_grant") }
            return json(
                .ok,
                .object([
                    "access_token": .string("a.access2"), "token_type": .string("Bearer"), "expires_in": .integer(3600),
                    "id_token": .string("eyJ.id.token2"),
                ]))
        case ("auth/token", "client_credentials"):
            guard fields["scope"] == "user.migration" else { return error("invalid_scope") }
            return json(.ok, .object(["access_token": .string("migration.access"), "token_type": .string("Bearer"), "expires_in": .integer(3600)]))
        case ("auth/token", _):
            return error("unsupported_grant_type")
        case ("auth/revoke", _):
            guard fields["token"] != nil, ["refresh_token", "access_token"].contains(fields["token_type_hint"]) else {
                return error("invalid_request")
            }
            return Response(status: .ok)
        case ("auth/usermigrationinfo", _):
            guard request.headers[.authorization] == "Bearer migration.access" else { return error("invalid_request", "missing bearer") }
            if let sub = fields["sub"], let target = fields["target"] {
                return json(.ok, .object(["transfer_sub": .string("transfer.\(sub).\(target)")]))
            }
            if let transfer = fields["transfer_sub"] {
                return json(
                    .ok,
                    .object(["sub": .string("new.\(transfer)"), "email": .string("abc@privaterelay.appleid.com"), "is_private_email": .bool(true)]))
            }
            return error("invalid_request")
        default:
            return error("invalid_request")
        }
    }

    /// The checks Apple makes: ES256 raw signature by the team key, kid, iss, sub = client_id, aud, exp.
    private func clientSecretIsValid(_ secret: String, clientID: String) -> Bool {
        let parts = secret.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let header = Base64URL.decode(parts[0]).flatMap({ try? JSONParser.parse($0) }),
            let claims = Base64URL.decode(parts[1]).flatMap({ try? JSONParser.parse($0) }),
            let signatureBytes = Base64URL.decode(parts[2]),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            teamKey.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8))
        else { return false }
        let now = Date().timeIntervalSince1970
        return header["alg"] == .string("ES256") && header["kid"] == .string(Self.keyID)
            && claims["iss"] == .string(Self.teamID) && claims["sub"] == .string(clientID)
            && claims["aud"] == .string("https://appleid.apple.com")
            && (claims["exp"]?.doubleValue ?? 0) > now
            && (claims["exp"]?.doubleValue ?? .infinity) - now <= 15_777_000
    }
}
