import AppleIDEmulator
import AppleSignIn
import Crypto
import Foundation
import Hummingbird
import JuiceTestSupport
import Logging
import Testing

@testable import AppleSignInConformance

/// The kit's Apple is the emulator's engine: its sign-ins redeem at the engine's token endpoint, and the
/// one hook for tokens Apple would never mint forges exactly what each case says. Judged by the
/// relying-party toolkit (`AppleSignIn`), over real HTTP.
@Suite("the kit plays Apple through the emulator's engine")
struct AppleStageTests {
    static let teamKey = P256.Signing.PrivateKey()

    /// The kit's Apple served on a free port, the toolkit's verifier and client pointed at it.
    static func serving(_ body: @Sendable (AppleStage, IdentityTokenVerifier, AppleIDClient) async throws -> Void) async throws {
        let directory = try TemporaryDirectory("kit-stage")
        defer { directory.remove() }
        let port = try FreePort.pick()
        let options = ConformanceOptions(
            backend: "http://127.0.0.1:1", port: port, teamID: "TEAMCONF01", keyID: "KEYCONF001",
            teamPublicKeyPEM: teamKey.publicKey.pemRepresentation, clientID: "com.example.web", redirectURI: "http://127.0.0.1:2/cb",
            bundleID: "com.example.app")
        let logger = Logger(label: "kit-stage", factory: { _ in SwiftLogNoOpLogHandler() })
        let apple = try await AppleStage.open(options: options, directory: directory.url, logger: logger)
        let (ready, signal) = AsyncStream<Void>.makeStream()
        let app = Application(
            router: try apple.engine.router(), configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { _ in signal.yield() }, logger: logger)
        let base = options.appleBaseURL
        let keys = AppleKeySet(source: HTTPAppleKeySource(url: base + "/auth/keys"), minimumRefetchInterval: .zero)
        let verifier = IdentityTokenVerifier(keys: keys, issuer: base, audiences: ["com.example.web", "com.example.app"])
        let client = AppleIDClient(
            baseURL: URL(string: base) ?? URL(fileURLWithPath: "/"),
            signer: try ClientSecretSigner(teamID: "TEAMCONF01", keyID: "KEYCONF001", privateKey: teamKey))
        try await withRunningServices([app], logger: logger, ready: (ready, signal)) { _ in try await body(apple, verifier, client) }
        await apple.engine.close()
    }

    @Test("a staged web sign-in verifies with the toolkit, its code redeems once, and the token endpoint's id_token carries the nonce")
    func webSignIn() async throws {
        try await Self.serving { apple, verifier, client in
            let signIn = try await apple.engine.signIn(
                appleID: apple.mainAppleID, clientID: "com.example.web", redirectURI: "http://127.0.0.1:2/cb", nonce: "n-123",
                hideEmail: false, device: false)
            let token = try await verifier.verify(signIn.idToken, nonceClaim: "n-123", authorizationCode: signIn.code, requiresNonce: true)
            #expect(token.subject == signIn.subject)
            #expect(signIn.user?.contains("Ada") == true)
            let redeemed = try await client.exchangeCode(signIn.code, clientID: "com.example.web", redirectURI: URL(string: "http://127.0.0.1:2/cb"))
            let fromEndpoint = try await verifier.verify(try #require(redeemed.idToken), nonceClaim: "n-123")
            #expect(fromEndpoint.subject == signIn.subject)
            #expect(try await apple.engine.wasRedeemed(signIn.code))
            await #expect(throws: AppleIDClientError.self) {
                _ = try await client.exchangeCode(signIn.code, clientID: "com.example.web", redirectURI: URL(string: "http://127.0.0.1:2/cb"))
            }
        }
    }

    @Test(
        "each forged signature is refused by the toolkit's verifier, while a forgery signed as Apple verifies",
        arguments: [TokenForgery.Signature.corrupted, .none, .hs256WithPublicKey, .unpublishedKey])
    func forgedSignatures(signature: TokenForgery.Signature) async throws {
        try await Self.serving { apple, verifier, _ in
            let signIn = try await apple.engine.signIn(
                appleID: apple.nativeAppleID, clientID: "com.example.app", redirectURI: nil, nonce: "n", hideEmail: false, device: true)
            let genuine = try await apple.engine.forge(signIn.idToken, with: TokenForgery(signature: .apple))
            #expect(try await verifier.verify(genuine, nonceClaim: "n").subject == signIn.subject)
            let forged = try await apple.engine.forge(signIn.idToken, with: TokenForgery(signature: signature))
            await #expect(throws: TokenVerificationError.self) { _ = try await verifier.verify(forged, nonceClaim: "n") }
        }
    }

    @Test("a case's plan forges the token endpoint's tokens while it plays, and Apple's own come back when the case ends")
    func tokenEndpointForgery() async throws {
        try await Self.serving { apple, verifier, client in
            let plan = SignInPlan([WrongAudience()])
            for ended in [false, true] {
                let signIn = try await apple.engine.signIn(
                    appleID: apple.nativeAppleID, clientID: "com.example.app", redirectURI: nil, nonce: "n", hideEmail: false, device: true)
                apple.engine.forgeTokens(clientID: "com.example.app", with: plan.tokenEndpoint)
                if ended { apple.endCase() }
                let redeemed = try await client.exchangeCode(signIn.code, clientID: "com.example.app")
                let idToken = try #require(redeemed.idToken)
                if ended {
                    #expect(try await verifier.verify(idToken, nonceClaim: "n").subject == signIn.subject)
                } else {
                    await #expect(throws: TokenVerificationError.self) { _ = try await verifier.verify(idToken, nonceClaim: "n") }
                }
            }
        }
    }

    @Test("Apple's failures come into force through the emulator's vocabulary: the token endpoint refuses, and endCase clears it")
    func failures() async throws {
        try await Self.serving { apple, _, client in
            apple.put([AppleFailure(kind: .tokenServerError, perClient: true, status: 503)], clientID: "com.example.app")
            let signIn = try await apple.engine.signIn(
                appleID: apple.nativeAppleID, clientID: "com.example.app", redirectURI: nil, nonce: "n", hideEmail: false, device: true)
            await #expect(throws: AppleIDClientError.self) { _ = try await client.exchangeCode(signIn.code, clientID: "com.example.app") }
            apple.endCase()
            _ = try await client.exchangeCode(signIn.code, clientID: "com.example.app")
            #expect(apple.requests(to: "/auth/token").map(\.status) == [503, 200])
        }
    }
}
