import Foundation
import Synchronization
import JuiceClient
import Testing

/// The Apple ID flow against a stand-in of the server's native relay and API (issue 5), with a real
/// browser script, loopback listener, HTTP client and credential store.
@Suite("Apple ID flow")
struct AppleIDFlowTests {
    /// Runs `body` with a stand-in server, a scripted person and a sign-in wired to them.
    func withFlow(
        relay: StandInJuiceServer.RelayAnswer = .success,
        clock: any Clock<Duration> = ContinuousClock(),
        _ body: @Sendable (StandInJuiceServer, ScriptedPerson, JuiceSignIn) async throws -> Void
    ) async throws {
        let server = StandInJuiceServer()
        server.state.withLock { $0.relayAnswer = relay }
        try await server.run { base in
            try await TemporaryDirectory.with { temp in
                let person = try ScriptedPerson(in: temp)
                let provider = AppleIDProvider(
                    server: JuiceServerAPI(baseURL: base),
                    store: CredentialStore(directory: temp.file("juice-home")),
                    browser: person.browser,
                    receiver: LoopbackReceiver(timeout: .seconds(120), clock: clock),
                    random: fixedRandom()
                )
                try await body(server, person, JuiceSignIn(provider: provider))
            }
        }
    }

    @Test("signs in: nonce, relay through the browser, loopback, POST /api/auth/apple, session and user saved")
    func success() async throws {
        try await withFlow { server, person, signIn in
            async let page = person.visit()
            let result = try await signIn.signInWithApple()
            #expect(try await page.body.contains("You can close this window"))

            guard case .appleID(let credential) = result.credential else { Issue.record("not an Apple ID credential"); return }
            #expect(credential.user == server.subject)
            #expect(credential.state == fixedRandom().token())
            #expect(credential.authorizedScopes == [.fullName, .email])
            #expect(credential.fullName?.givenName == "Alice")
            #expect(credential.fullName?.familyName == "Appleseed")
            #expect(credential.email == "alice@privaterelay.appleid.com")
            #expect(credential.realUserStatus == .likelyReal)
            #expect(credential.authorizationCode.map { String(decoding: $0, as: UTF8.self).hasPrefix("c0de.") } == true)
            #expect(!"\(credential)".contains("c0de"))

            let state = server.state.withLock { $0 }
            let relay = try #require(state.relayQueries.first)
            let sent = try #require(state.appleSignIns.first)
            #expect(relay["nonce"] == Nonce.sha256Hex(sent.nonce))
            #expect(relay["state"] == credential.state)
            #expect(relay["scope"] == "name email")
            #expect(relay["redirect_uri"]?.hasPrefix("http://127.0.0.1:") == true)
            #expect(relay["redirect_uri"]?.hasSuffix("/callback") == true)
            #expect(sent.fullName == JuiceAccount.Name(givenName: "Alice", familyName: "Appleseed"))
            #expect(sent.email == "alice@privaterelay.appleid.com")
            #expect(sent.identityToken == credential.identityToken.map { String(decoding: $0, as: UTF8.self) })

            let saved = try await signIn.store.session(for: signIn.server.baseURL)
            #expect(saved == StoredSession(token: result.session.token, userIdentifier: server.subject, accountID: "acc-1"))
        }
    }

    @Test("the person cancelling at Apple is canceled, and nothing is saved")
    func cancel() async throws {
        try await withFlow(relay: .cancel) { server, person, signIn in
            async let page = person.visit()
            await #expect(throws: AuthorizationError.canceled("")) { try await signIn.signInWithApple() }
            let answer = try await page
            #expect(answer.status == 200)
            let saved = try await signIn.store.session(for: signIn.server.baseURL)
            #expect(saved == nil)
            #expect(server.state.withLock { $0.appleSignIns.isEmpty })
        }
    }

    @Test("an answer with another state is invalidResponse and is never sent to the server")
    func stateMismatch() async throws {
        try await withFlow(relay: .wrongState) { server, person, signIn in
            async let page = person.visit()
            await #expect(throws: AuthorizationError.invalidResponse("")) { try await signIn.signInWithApple() }
            _ = try await page
            #expect(server.state.withLock { $0.appleSignIns.isEmpty })
        }
    }

    @Test("an Apple error is failed; an answer without identity token is invalidResponse")
    func unusableAnswers() async throws {
        try await withFlow(relay: .appleError("invalid_request")) { _, person, signIn in
            async let page = person.visit()
            do {
                _ = try await signIn.signInWithApple()
                Issue.record("no error")
            } catch let error as AuthorizationError {
                #expect(error.code == .failed)
                #expect(error.reason.contains("invalid_request"))
            }
            _ = try await page
        }
        try await withFlow(relay: .noIdentityToken) { _, person, signIn in
            async let page = person.visit()
            await #expect(throws: AuthorizationError.invalidResponse("")) { try await signIn.signInWithApple() }
            _ = try await page
        }
    }

    @Test("nobody answering before the timeout is canceled (injected clock)")
    func timeout() async throws {
        let clock = ManualClock()
        try await withFlow(clock: clock) { _, person, signIn in
            async let advanced: Void = {
                _ = try await eventually { clock.sleeperCount > 0 && !person.openedURLs.isEmpty ? true : nil }
                clock.advance(by: .seconds(120))
            }()
            await #expect(throws: AuthorizationError.canceled("")) { try await signIn.signInWithApple() }
            try await advanced
        }
    }

    @Test("credential state at launch: authorized, revoked, transferred, notFound for another user or no session")
    func credentialState() async throws {
        try await withFlow { server, person, signIn in
            let provider = signIn.provider
            #expect(try await provider.credentialState(forUserID: server.subject) == .notFound)
            async let page = person.visit()
            _ = try await signIn.signInWithApple()
            _ = try await page
            #expect(try await provider.credentialState(forUserID: server.subject) == .authorized)
            #expect(try await provider.credentialState(forUserID: "000000.other.0000") == .notFound)
            for (name, state) in [("revoked", CredentialState.revoked), ("transferred", .transferred), ("notFound", .notFound)] {
                server.state.withLock { $0.credentialState = name }
                #expect(try await provider.credentialState(forUserID: server.subject) == state)
            }
            server.state.withLock { $0.credentialState = "garbage" }
            await #expect(throws: JuiceServerError.unexpectedResponse(status: 200, "")) {
                try await provider.credentialState(forUserID: server.subject)
            }
            server.state.withLock { $0.sessions.removeAll() }
            #expect(try await provider.credentialState(forUserID: server.subject) == .notFound)
        }
    }
}
