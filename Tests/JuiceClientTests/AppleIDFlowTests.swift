import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import AppleIDEmulator
@testable import JuiceClient

/// The Apple ID flow end to end: JuiceClient, a scripted person at the browser, the real server's
/// loopback bridge and API, the real emulator standing in for Apple.
@Suite("Apple ID flow against the real server and emulator")
struct AppleIDFlowTests {
    @Test("signs in: nonce, bridge through the browser, Apple's pages, loopback, POST /api/auth/apple; session and user saved")
    func success() async throws {
        try await LiveFlow.with { _, person, signIn in
            async let page = person.signInAtApple()
            let result = try await signIn.signInWithApple()
            let answer = try await page
            #expect(answer.status == 200)
            #expect(answer.body.contains("You can close this window"))

            guard case .appleID(let credential) = result.credential else {
                Issue.record("not an Apple ID credential")
                return
            }
            #expect(credential.user.split(separator: ".").count == 3, "an Apple-shaped user identifier")
            #expect(credential.state == fixedRandom().token())
            #expect(credential.fullName?.givenName == "Johnny")
            #expect(credential.fullName?.familyName == "Appleseed")
            #expect(credential.email == "appleseed@juice.test")
            #expect(credential.identityToken != nil && credential.authorizationCode != nil)
            #expect(!"\(credential)".contains(String(decoding: credential.authorizationCode ?? Data(), as: UTF8.self)))

            #expect(result.session.account.user == credential.user)
            #expect(result.session.account.name?.givenName == "Johnny", "the server kept the once-only name")
            let saved = try await signIn.store.session(for: signIn.server.baseURL)
            #expect(saved?.userIdentifier == credential.user)
            #expect(saved?.token == result.session.token)
            let me = try await signIn.server.account(sessionToken: result.session.token)
            #expect(me.email == "appleseed@juice.test")
        }
    }

    @Test("the person cancelling at Apple is canceled, and nothing is saved")
    func cancel() async throws {
        try await LiveFlow.with { _, person, signIn in
            async let page = person.signInAtApple(choice: .cancel)
            await #expect(throws: AuthorizationError.canceled("")) { try await signIn.signInWithApple() }
            let answer = try await page
            #expect(answer.status == 200)
            let saved = try await signIn.store.session(for: signIn.server.baseURL)
            #expect(saved == nil)
        }
    }

    @Test("a loopback answer with another state is invalidResponse, and nothing is sent to the server or saved")
    func stateMismatch() async throws {
        try await LiveFlow.with { _, person, signIn in
            async let page = person.signInAtApple(tamperState: "forged-state")
            await #expect(throws: AuthorizationError.invalidResponse("")) { try await signIn.signInWithApple() }
            _ = try await page
            let saved = try await signIn.store.session(for: signIn.server.baseURL)
            #expect(saved == nil)
        }
    }

    @Test("nobody answering before the timeout is canceled (injected clock)")
    func timeout() async throws {
        let clock = ManualClock()
        try await LiveFlow.with(clock: clock) { _, person, signIn in
            async let advanced: Void = {
                _ = try await eventually { clock.sleeperCount > 0 && !person.openedURLs.isEmpty ? true : nil }
                clock.advance(by: .seconds(120))
            }()
            await #expect(throws: AuthorizationError.canceled("")) { try await signIn.signInWithApple() }
            try await advanced
        }
    }

    @Test("credential state at launch: authorized after sign-in, notFound for another user, revoked once Apple revokes")
    func credentialState() async throws {
        try await LiveFlow.with { juice, person, signIn in
            let provider = signIn.provider
            let (_, credential) = try await LiveFlow.signIn(person, signIn)
            #expect(try await provider.credentialState(forUserID: credential.user) == .authorized)
            #expect(try await provider.credentialState(forUserID: "000000.0123456789abcdef0123456789abcdef.0000") == .notFound)
            try await juice.admin("revoke-consent", ["apple_id": StackEnvironment.johnny.email, "client_id": StackEnvironment.bundleID])
            let revoked = try await eventually { try await provider.credentialState(forUserID: credential.user) == .revoked ? true : nil }
            #expect(revoked == true, "the revocation reached the server as Apple's notification")
        }
    }

    @Test("a long-running client sees the revocation live through credentialRevocations (GET /api/events)")
    func liveRevocation() async throws {
        try await LiveFlow.with { juice, person, signIn in
            let (session, credential) = try await LiveFlow.signIn(person, signIn)
            let ready = AsyncStream.makeStream(of: Void.self)
            var revocations = signIn.server.credentialRevocations(sessionToken: session.token, user: credential.user)
            revocations.onReady = { ready.continuation.yield() }
            async let first = revocations.first { _ in true }
            var connected = ready.stream.makeAsyncIterator()
            _ = await connected.next()  // the server follows the session now
            try await juice.admin("revoke-consent", ["apple_id": StackEnvironment.johnny.email, "client_id": StackEnvironment.bundleID])
            let revocation = try await first
            #expect(revocation == CredentialRevocation(user: credential.user, state: .revoked))
            let late = try await signIn.server.credentialRevocations(sessionToken: session.token, user: credential.user).first { _ in true }
            #expect(late == CredentialRevocation(user: credential.user, state: .revoked), "revoked before the stream connected: still reported")
        }
    }

    @Test("signing out ends the revocation sequence without an element; a refused session ends it with unauthorized")
    func sequenceEnds() async throws {
        try await LiveFlow.with { _, person, signIn in
            let (session, _) = try await LiveFlow.signIn(person, signIn)
            let ready = AsyncStream.makeStream(of: Void.self)
            var revocations = signIn.server.credentialRevocations(sessionToken: session.token)
            revocations.onReady = { ready.continuation.yield() }
            async let all = revocations.reduce(into: [CredentialRevocation]()) { $0.append($1) }
            var connected = ready.stream.makeAsyncIterator()
            _ = await connected.next()  // connected (a first connection after the sign-out is a 401)
            try await signIn.server.signOut(sessionToken: session.token)
            let seen = try await all
            #expect(seen.isEmpty)
            await #expect(throws: JuiceServerError.self) {
                for try await _ in signIn.server.credentialRevocations(sessionToken: session.token) {}
            }
        }
    }

    @Test("deleting the account: the server answers notFound for the user afterwards, and the session is gone")
    func deletion() async throws {
        try await LiveFlow.with { _, person, signIn in
            let (session, credential) = try await LiveFlow.signIn(person, signIn)
            try await signIn.server.deleteAccount(sessionToken: session.token)
            #expect(try await signIn.provider.credentialState(forUserID: credential.user) == .notFound)
            await #expect(throws: JuiceServerError.self) { try await signIn.server.account(sessionToken: session.token) }
        }
    }
}
