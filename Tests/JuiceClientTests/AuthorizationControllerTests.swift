import Foundation
import JuiceClient
import JuiceStackSupport
import JuiceTestSupport
import Synchronization
import Testing

@testable import AppleIDEmulator

@Suite("Authorization controller")
struct AuthorizationControllerTests {
    @Test("offers a saved password before asking the person, as the sample's existing-account flow")
    func savedPasswordFirst() async throws {
        try await LiveFlow.with { juice, person, signIn in
            let store = signIn.store
            try await store.savePassword(PasswordCredential(user: "alice", password: "correct horse"), for: juice.serverBaseURL)
            let controller = AuthorizationController(requests: [
                signIn.provider.createRequest(), PasswordProvider(server: juice.serverBaseURL, store: store).createRequest(),
            ])
            let authorization = try await controller.performRequests()
            #expect(authorization.credential == .password(PasswordCredential(user: "alice", password: "correct horse")))
            #expect(person.openedURLs.isEmpty)
        }
    }

    @Test("reuses the saved Apple user while authorized (implicit), asks again with login or once Apple revoked it")
    func implicitReuse() async throws {
        try await LiveFlow.with { juice, person, signIn in
            let provider = signIn.provider
            async let page = person.signInAtApple(0)
            let first = try await signIn.signInWithApple()
            _ = try await page
            guard case .appleID(let signedIn) = first.credential else {
                Issue.record("not an Apple ID credential")
                return
            }

            let reused = try await AuthorizationController(requests: [provider.createRequest()])
                .performRequests(options: .preferImmediatelyAvailableCredentials)
            guard case .appleID(let credential) = reused.credential else {
                Issue.record("not an Apple ID credential")
                return
            }
            #expect(credential.user == signedIn.user)
            #expect(credential.identityToken == nil)
            #expect(person.openedURLs.count == 1)

            var login = provider.createRequest()
            login.requestedOperation = .operationLogin
            await #expect(throws: AuthorizationError.notInteractive("")) {
                try await AuthorizationController(requests: [login]).performRequests(options: .preferImmediatelyAvailableCredentials)
            }

            try await juice.admin("revoke-consent", ["apple_id": StackEnvironment.johnny.email, "client_id": StackEnvironment.bundleID])
            _ = try await eventually { try await provider.credentialState(forUserID: signedIn.user) == .revoked ? true : nil }
            await #expect(throws: AuthorizationError.notInteractive("")) {
                try await AuthorizationController(requests: [provider.createRequest()]).performRequests(
                    options: .preferImmediatelyAvailableCredentials)
            }
            let second = Task {
                do { return try await person.signInAtApple(1) } catch {
                    Issue.record("the person could not sign in again: \(error)")
                    throw error
                }
            }
            var again = provider.createRequest()
            await #expect(throws: AuthorizationError.failed("")) { try await AuthorizationController(requests: [again]).performRequests() }
            #expect(person.openedURLs.count == 1, "a request without a nonce fails before the browser opens")
            again.nonce = Nonce.sha256Hex(try await signIn.server.makeNonce())
            let fresh = try await AuthorizationController(requests: [again]).performRequests()
            _ = try await second.value
            guard case .appleID(let freshCredential) = fresh.credential else {
                Issue.record("not an Apple ID credential")
                return
            }
            #expect(freshCredential.identityToken != nil)
            #expect(freshCredential.fullName?.givenName == "Johnny", "after Stop Using Apple ID, the next authorization is a first one again")
        }
    }

    @Test("with nothing to offer: notInteractive when the person may not be asked, notHandled otherwise")
    func nothingToOffer() async throws {
        try await TemporaryDirectory.with { temp in
            let store = CredentialStore(directory: temp.url)
            let passwords = PasswordProvider(server: URL(string: "http://127.0.0.1:1")!, store: store)
            await #expect(throws: AuthorizationError.notInteractive("")) {
                try await AuthorizationController(requests: [passwords.createRequest()]).performRequests(
                    options: .preferImmediatelyAvailableCredentials)
            }
            await #expect(throws: AuthorizationError.notHandled("")) {
                try await AuthorizationController(requests: [passwords.createRequest()]).performRequests()
            }
            await #expect(throws: AuthorizationError.notHandled("")) {
                try await AuthorizationController(requests: []).performRequests()
            }
        }
    }

    @Test("a corrupt store fails the request instead of skipping it")
    func corruptStore() async throws {
        try await TemporaryDirectory.with { temp in
            try Data("not json".utf8).write(to: temp.file("passwords.json"))
            let passwords = PasswordProvider(server: URL(string: "http://127.0.0.1:1")!, store: CredentialStore(directory: temp.url))
            await #expect(throws: AuthorizationError.failed("")) {
                try await AuthorizationController(requests: [passwords.createRequest()]).performRequests()
            }
        }
    }
}
