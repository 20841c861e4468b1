import AppleSignIn
import AsyncHTTPClient
import Foundation
import JuiceClient
import JuiceEncodings

/// The measurement behind `juice bench signin --method passkey`: what an app does with JuiceClient.
///
/// Before the clock starts: one account (`POST /api/accounts`), then one passkey per worker, each in
/// a credential store of its own in a temporary directory, so that no two workers share a signature
/// counter. Each sign-in is `POST /api/auth/passkey/options`, the software passkey's ES256 assertion
/// through an ``AuthorizationController`` (its counter saved to the worker's store), and
/// `POST /api/auth/passkey`. With `--server-only` the options and assertions are made first, untimed,
/// and only `POST /api/auth/passkey` is timed: the server's own cost.
struct BenchPasskeySignIn: Sendable {
    let server: String
    /// The origin the passkeys put in `clientDataJSON`: the server's public URL's (the RP's web origin).
    let origin: String

    /// A benchmark of `server`; `origin` defaults to `server`'s own origin.
    init(server: String, origin: String? = nil) {
        self.server = server
        self.origin = origin ?? URL(string: server)?.webOrigin ?? server
    }

    func run(count: Int, concurrency: Int, serverOnly: Bool, httpClient: HTTPClient) async throws -> JSONValue {
        guard let base = URL(string: server) else { throw BenchSignInError(kind: "setup", "\(server) is not a URL") }
        let api = JuiceServerAPI(baseURL: base, httpClient: httpClient)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-bench-passkeys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let token = try await BenchPasswordSignIn(server: server).signUp(httpClient: httpClient)
        var passkeys: [BenchPasskey] = []
        for worker in 0..<min(concurrency, count) {
            let store = CredentialStore(directory: directory.appendingPathComponent("\(worker)"))
            passkeys.append(try await BenchPasskey.register(api: api, store: store, origin: origin, sessionToken: token))
        }
        let signers = passkeys
        let timed: BenchSignIn.Timed
        if serverOnly {
            let slots = CredentialSlots<PlatformPublicKeyCredentialAssertion>(count: count)
            let collected = try await BenchSignIn.drive(count: count, concurrency: concurrency, label: "assertions") {
                (index: Int) async throws(BenchSignInError) in
                slots.store(try await signers[index % signers.count].assertion(api: api), at: index)
            }
            guard collected.failures.isEmpty else {
                throw BenchSignInError(kind: "passkey", "making the assertions failed (\(collected.failures.sorted { $0.key < $1.key }))")
            }
            let assertions = slots.all()
            timed = try await BenchSignIn.drive(count: assertions.count, concurrency: concurrency, label: "sign-ins") {
                (index: Int) async throws(BenchSignInError) in
                try await BenchPasskey.signIn(assertions[index], api: api)
            }
        } else {
            timed = try await BenchSignIn.drive(count: count, concurrency: concurrency, label: "sign-ins") {
                (index: Int) async throws(BenchSignInError) in
                try await BenchPasskey.signIn(try await signers[index % signers.count].assertion(api: api), api: api)
            }
        }
        return BenchSignIn.report(
            timed,
            fields: [
                "method": .string(BenchMethod.passkey.rawValue), "mode": .string(serverOnly ? "server-only" : "complete"),
                "server": .string(server), "count": .integer(Int64(count)), "concurrency": .integer(Int64(concurrency)),
                "passkeys": .integer(Int64(signers.count)),
            ])
    }
}

/// One benchmark worker's passkey: its store and the provider that signs with it.
struct BenchPasskey: Sendable {
    let provider: PlatformPublicKeyCredentialProvider

    /// Creates a passkey in `store` and registers it with the account of `sessionToken`.
    static func register(
        api: JuiceServerAPI, store: CredentialStore, origin: String, sessionToken: String
    ) async throws(BenchSignInError) -> BenchPasskey {
        do {
            let options = try await api.beginPasskeyRegistration(sessionToken: sessionToken)
            let provider = PlatformPublicKeyCredentialProvider(
                relyingPartyIdentifier: options.relyingPartyIdentifier, store: store, origin: origin)
            let authorization = try await AuthorizationController(requests: [options.registrationRequest(from: provider)]).performRequests()
            guard case .publicKeyCredentialRegistration(let registration) = authorization.credential else {
                throw BenchSignInError(kind: "register", "the registration request gave another kind of credential")
            }
            _ = try await api.finishPasskeyRegistration(registration, name: "bench", sessionToken: sessionToken)
            return BenchPasskey(provider: provider)
        } catch let error as BenchSignInError {
            throw error
        } catch {
            throw BenchSignInError(kind: "register", "adding a passkey failed: \(error)")
        }
    }

    /// A fresh challenge from the server, signed by this passkey.
    func assertion(api: JuiceServerAPI) async throws(BenchSignInError) -> PlatformPublicKeyCredentialAssertion {
        let options: PasskeyRequestOptions
        do {
            options = try await api.beginPasskeySignIn()
        } catch {
            throw BenchSignInError(kind: "options", "\(error)")
        }
        let credential: AuthorizationCredential
        do {
            credential = try await AuthorizationController(requests: [options.assertionRequest(from: provider)])
                .performRequests(options: .preferImmediatelyAvailableCredentials).credential
        } catch {
            throw BenchSignInError(kind: "authenticator", "\(error)")
        }
        guard case .publicKeyCredentialAssertion(let assertion) = credential else {
            throw BenchSignInError(kind: "authenticator", "the assertion request gave another kind of credential")
        }
        return assertion
    }

    /// `POST /api/auth/passkey` with `assertion`.
    static func signIn(_ assertion: PlatformPublicKeyCredentialAssertion, api: JuiceServerAPI) async throws(BenchSignInError) {
        do {
            _ = try await api.signInWithPasskey(assertion)
        } catch {
            throw BenchSignInError(kind: "passkey", "\(error)")
        }
    }
}
