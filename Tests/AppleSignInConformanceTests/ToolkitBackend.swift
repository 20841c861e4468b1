import AppleSignIn
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import JuiceEncodings
import JuiceTestSupport
import Logging
import ServiceLifecycle

@testable import AppleSignInConformance

/// A Sign in with Apple backend the kit has never seen, written in the tests on the AppleSignIn toolkit,
/// correct unless told to have one flaw. Web flow (`/auth/apple`, `/auth/apple/callback`, probe `/me`),
/// native (`/api/auth/apple`) and notifications (`/apple/notifications`).
struct ToolkitBackend: Sendable {
    /// One deliberate mistake, each of one the public bug trackers know.
    enum Flaw: Sendable, CaseIterable {
        /// Verifies the token against the audience the token itself names.
        case trustsTokenAudience
        /// Fetches Apple's keys once and never again.
        case neverRefreshesKeys
        /// Refetches Apple's keys for an unknown kid only 5 s after its last fetch (a refetch cooldown, as PyJWT's PyJWKClient has).
        case refetchesKeysLate
        /// Looks the state up but never consumes it.
        case reusableState
        /// Trusts the identity token and never redeems the code (nor requires one).
        case neverRedeemsCode
        /// Decodes email_verified/is_private_email as JSON booleans only, and crashes (500) on strings.
        case strictBooleans
        /// Also requires the state in a `SameSite=Lax` cookie, which browsers leave out of Apple's cross-site form_post.
        case laxStateCookie
        /// Answers 500 to a token whose header says `alg: none` (it crashes instead of refusing).
        case crashesOnUnsignedTokens
        /// Takes 12 s over an expired token on its web callback (the kit waits 6 s).
        case slowOnExpiredTokens
        /// Deletes the account but never revokes its token at Apple.
        case keepsTokensOnDeletion
        /// Answers consent-revoked and account-delete notifications 200 but keeps the user's sessions.
        case ignoresConsentRevoked
        /// Refuses a native sign-in whose token has no email (it keys accounts by email).
        case requiresEmail
        /// Crashes (500) when Apple's token endpoint fails a native code's redemption.
        case crashesWhenAppleFails
        /// Takes the issuer to expect from Apple's discovery document, read on every sign-in.
        case issuerFromDiscovery
        /// Waits as long as Apple takes to redeem a native code: no deadline of its own on Apple.
        case waitsOnApple
        /// Its identity-token verifier knows the Services ID alone, so its iOS app's tokens (aud: the bundle id) are refused.
        case oneAudience
        /// Parses a notification's `events` only as the JSON string Apple sends, refusing (400) an object.
        case eventsStringOnly
        /// Sets its session cookie with a `Domain` its own host does not match, which a browser drops.
        case sessionCookieForOtherDomain
    }

    static let teamID = "TEAMCONF01"
    static let keyID = "KEYCONF001"
    static let clientID = "com.example.conformance.web"
    static let bundleID = "com.example.conformance"

    let port: Int
    let kitPort: Int
    let teamKey: P256.Signing.PrivateKey
    let flaw: Flaw?

    var url: String { "http://127.0.0.1:\(port)" }
    var redirectURI: String { url + "/auth/apple/callback" }
    var kitURL: String { "http://127.0.0.1:\(kitPort)" }

    /// Kit options for this backend, every endpoint given.
    func options() -> ConformanceOptions {
        var options = ConformanceOptions(
            backend: url, port: kitPort, teamID: Self.teamID, keyID: Self.keyID, teamPublicKeyPEM: teamKey.publicKey.pemRepresentation,
            clientID: Self.clientID, redirectURI: redirectURI, bundleID: Self.bundleID)
        options.probePath = "/me"
        options.nativePath = "/api/auth/apple"
        options.notificationsPath = "/apple/notifications"
        options.deletePath = "/account/delete"
        options.keyRefetchInterval = .milliseconds(1500)
        // The backend refetches within 1 s (refetchesKeysLate: 5 s); a window of 15 s tells late from never.
        options.keyRotationWindow = .seconds(15)
        // A correct answer takes milliseconds, but the suite runs browsers and servers beside this on
        // two cores; only the stalling backend needs a timeout shorter than its 12 s stall.
        options.requestTimeout = flaw == .slowOnExpiredTokens ? .seconds(6) : .seconds(30)
        // The backend gives Apple 3 s (waitsOnApple: 120 s), so it refuses well within the kit's 8 s.
        options.appleStallBound = .seconds(8)
        return options
    }

    /// Serves the backend while `body` runs.
    func serving<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        let (ready, signal) = AsyncStream<Void>.makeStream()
        let running = Application(
            router: try application(), configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { _ in signal.yield() },
            logger: Logger(label: "toolkit-backend", factory: { _ in SwiftLogNoOpLogHandler() }))
        return try await withRunningServices([running], logger: running.logger, ready: (ready, signal)) { _ in try await body() }
    }

    private func application() throws -> Router<BasicRequestContext> {
        let kit = kitURL
        let keys = AppleKeySet(
            source: HTTPAppleKeySource(url: kit + "/auth/keys"),
            defaultMaxAge: .seconds(3600),
            minimumRefetchInterval: flaw == .neverRefreshesKeys ? .seconds(3600) : flaw == .refetchesKeysLate ? .seconds(5) : .seconds(1),
            maximumMaxAge: .seconds(3600))
        let verifier = IdentityTokenVerifier(
            keys: keys, issuer: kit, audiences: flaw == .oneAudience ? [Self.clientID] : [Self.clientID, Self.bundleID])
        let notifications = ServerNotificationVerifier(keys: keys, issuer: kit, audiences: [Self.clientID, Self.bundleID])
        let apple = AppleIDClient(
            baseURL: URL(string: kit) ?? URL(fileURLWithPath: "/"),
            signer: try ClientSecretSigner(teamID: Self.teamID, keyID: Self.keyID, privateKey: teamKey),
            timeout: flaw == .waitsOnApple ? .seconds(120) : .seconds(3))
        let state = BackendState()
        let flaw = self.flaw
        let redirectURI = self.redirectURI

        /// The issuer Apple's discovery document names now (read on every call: the flaw `issuerFromDiscovery`).
        @Sendable func discoveryIssuer() async throws -> String {
            try await TestHTTP(timeout: .seconds(10)).get(kit + "/.well-known/openid-configuration").json?["issuer"] as? String ?? ""
        }

        /// Verifies a token: with the toolkit, or (flawed) against the audience the token names.
        @Sendable func verify(_ token: String, nonce: String, code: String?) async throws -> IdentityToken {
            if flaw == .issuerFromDiscovery {
                let issuer = try await discoveryIssuer()
                return try await IdentityTokenVerifier(keys: keys, issuer: issuer, audiences: [Self.clientID, Self.bundleID]).verify(
                    token, nonceClaim: nonce, authorizationCode: code, requiresNonce: true)
            }
            if flaw == .trustsTokenAudience, let audience = Self.claim("aud", of: token) {
                return try await IdentityTokenVerifier(keys: keys, issuer: kit, audiences: [audience]).verify(
                    token, nonceClaim: nonce, authorizationCode: code, requiresNonce: true)
            }
            return try await verifier.verify(token, nonceClaim: nonce, authorizationCode: code, requiresNonce: true)
        }

        /// The flawed reactions to hostile tokens, before verification.
        @Sendable func misbehave(_ token: String, web: Bool) async throws -> Response? {
            if flaw == .crashesOnUnsignedTokens, Self.header("alg", of: token) == "none" { return Response(status: .internalServerError) }
            if flaw == .slowOnExpiredTokens, web, let expiry = Self.number("exp", of: token), expiry < Date().timeIntervalSince1970 {
                try await Task.sleep(for: .seconds(12))
            }
            return nil
        }

        let router = Router()
        router.get("/auth/apple") { _, _ in
            let (stateValue, nonce) = (UUID().uuidString, UUID().uuidString)
            await state.issue(state: stateValue, nonce: nonce)
            var query = URLComponents()
            query.queryItems = [
                .init(name: "client_id", value: Self.clientID), .init(name: "redirect_uri", value: redirectURI),
                .init(name: "response_type", value: "code id_token"), .init(name: "response_mode", value: "form_post"),
                .init(name: "scope", value: "name email"), .init(name: "state", value: stateValue), .init(name: "nonce", value: nonce),
            ]
            var headers: HTTPFields = [.location: kit + "/auth/authorize?" + (query.percentEncodedQuery ?? "")]
            if flaw == .laxStateCookie { headers[.setCookie] = "st=\(stateValue); Path=/; HttpOnly; SameSite=Lax" }
            return Response(status: .found, headers: headers)
        }
        router.post("/auth/apple/callback") { request, _ in
            let form = FormBody.decode(String(buffer: try await request.body.collect(upTo: 65_536)))
            guard let stateValue = form["state"], let token = form["id_token"], let code = form["code"],
                let nonce = await state.take(state: stateValue, consume: flaw != .reusableState)
            else { return Response(status: .badRequest) }
            if flaw == .laxStateCookie, Self.cookie("st", in: request) != stateValue { return Response(status: .badRequest) }
            if let response = try await misbehave(token, web: true) { return response }
            let identity: IdentityToken
            do {
                identity = try await verify(token, nonce: nonce, code: code)
            } catch {
                return Response(status: .unauthorized)
            }
            if flaw == .strictBooleans {
                struct Strict: Decodable {
                    let email_verified: Bool?
                    let is_private_email: Bool?
                }
                let payload = Data(Base64URL.decode(token.split(separator: ".").dropFirst().first ?? "") ?? [])
                guard (try? JSONDecoder().decode(Strict.self, from: payload)) != nil else { return Response(status: .internalServerError) }
            }
            var refreshToken: String?
            if flaw != .neverRedeemsCode {
                do {
                    refreshToken = try await apple.exchangeCode(code, clientID: Self.clientID, redirectURI: URL(string: redirectURI)).refreshToken
                } catch {
                    return Response(status: .unauthorized)
                }
            }
            let session = await state.startSession(subject: identity.subject, email: identity.email, refreshToken: refreshToken)
            let domain = flaw == .sessionCookieForOtherDomain ? "; Domain=juice.example" : ""
            return Response(status: .seeOther, headers: [.location: "/me", .setCookie: "sid=\(session); Path=/; HttpOnly; SameSite=Lax\(domain)"])
        }
        router.get("/me") { request, _ in
            guard let session = Self.cookie("sid", in: request), let email = await state.signedInEmail(session) else {
                return Response(status: .unauthorized)
            }
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"email":"\#(email)"}"#)))
        }
        router.post("/account/delete") { request, _ in
            guard let session = Self.cookie("sid", in: request), let refreshToken = await state.endAccount(session: session) else {
                return Response(status: .unauthorized)
            }
            if flaw != .keepsTokensOnDeletion, let refreshToken {
                do {
                    try await apple.revoke(refreshToken, clientID: Self.clientID)
                } catch {
                    return Response(status: .badGateway)
                }
            }
            return Response(status: .noContent)
        }
        router.post("/api/auth/apple") { request, _ in
            struct Body: Decodable {
                let identityToken: String
                let authorizationCode: String?
                let nonce: String
            }
            guard let body = try? JSONDecoder().decode(Body.self, from: Data(String(buffer: try await request.body.collect(upTo: 65_536)).utf8))
            else {
                return Response(status: .badRequest)
            }
            if let response = try await misbehave(body.identityToken, web: false) { return response }
            let hashed = SHA256.hash(data: Data(body.nonce.utf8)).map { String(format: "%02x", $0) }.joined()
            let verified: IdentityToken
            do {
                verified = try await verify(body.identityToken, nonce: hashed, code: body.authorizationCode)
            } catch {
                return Response(status: .unauthorized)
            }
            if flaw == .requiresEmail, verified.email == nil { return Response(status: .badRequest) }
            if flaw != .neverRedeemsCode {
                // A correct backend requires the code: a token alone proves no fresh sign-in.
                guard let code = body.authorizationCode else { return Response(status: .badRequest) }
                do {
                    _ = try await apple.exchangeCode(code, clientID: Self.bundleID)
                } catch {
                    return Response(status: flaw == .crashesWhenAppleFails ? .internalServerError : .unauthorized)
                }
            }
            return Response(status: .ok)
        }
        router.post("/apple/notifications") { request, _ in
            let notification: ServerNotification
            do {
                let body = Array(buffer: try await request.body.collect(upTo: 65_536))
                if flaw == .eventsStringOnly {
                    let payload = (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["payload"] as? String ?? ""
                    guard Self.segment(1, of: payload)?["events"] is String else { return Response(status: .badRequest) }
                }
                if flaw == .issuerFromDiscovery {
                    let issuer = try await discoveryIssuer()
                    notification = try await ServerNotificationVerifier(keys: keys, issuer: issuer, audiences: [Self.clientID, Self.bundleID])
                        .verify(body: body)
                } else {
                    notification = try await notifications.verify(body: body)
                }
            } catch {
                return Response(status: .badRequest)
            }
            if flaw != .ignoresConsentRevoked, [.consentRevoked, .accountDeleted].contains(notification.type) {
                await state.endSessions(subject: notification.subject)
            }
            return Response(status: .ok)
        }
        return router
    }

    /// The value of the cookie `name` the request carries.
    private static func cookie(_ name: String, in request: Request) -> String? {
        let cookies = (request.headers[.cookie] ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        return cookies.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }

    /// A string claim of `token`, read without verification.
    private static func claim(_ name: String, of token: String) -> String? {
        segment(1, of: token)?[name] as? String
    }

    /// A numeric claim of `token`, read without verification.
    private static func number(_ name: String, of token: String) -> Double? {
        (segment(1, of: token)?[name] as? NSNumber)?.doubleValue
    }

    /// A header field of `token`.
    private static func header(_ name: String, of token: String) -> String? {
        segment(0, of: token)?[name] as? String
    }

    private static func segment(_ index: Int, of token: String) -> [String: Any]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard index < parts.count else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(Base64URL.decode(parts[index]) ?? [])) as? [String: Any]
    }
}

/// The backend's states and sessions.
actor BackendState {
    private var pending: [String: String] = [:]
    /// Session → (subject, email, the refresh token its sign-in got).
    private var sessions: [String: (subject: String, email: String, refreshToken: String?)] = [:]

    func issue(state: String, nonce: String) { pending[state] = nonce }

    /// The nonce stored for `state`; consumed unless the backend is flawed.
    func take(state: String, consume: Bool) -> String? {
        consume ? pending.removeValue(forKey: state) : pending[state]
    }

    func startSession(subject: String, email: String?, refreshToken: String?) -> String {
        let session = UUID().uuidString
        sessions[session] = (subject, email ?? "", refreshToken)
        return session
    }

    /// The email of the user signed in as `session`, or `nil` when it is not signed in.
    func signedInEmail(_ session: String) -> String? { sessions[session]?.email }

    /// Ends every session of `subject`.
    func endSessions(subject: String) {
        sessions = sessions.filter { $0.value.subject != subject }
    }

    /// Deletes the account signed in as `session`: ends its sessions; the refresh token to revoke (`.some(nil)` when none).
    func endAccount(session: String) -> String?? {
        guard let signedIn = sessions[session] else { return nil }
        endSessions(subject: signedIn.subject)
        return .some(signedIn.refreshToken)
    }
}
