import Foundation
import Synchronization
import JuiceClient
import Testing

@Suite("Authorization controller")
struct AuthorizationControllerTests {
    @Test("offers a saved password before asking the person, as the sample's existing-account flow")
    func savedPasswordFirst() async throws {
        let server = StandInJuiceServer()
        try await server.run { base in
            try await TemporaryDirectory.with { temp in
                let person = try ScriptedPerson(in: temp)
                let store = CredentialStore(directory: temp.url)
                let apple = AppleIDProvider(server: JuiceServerAPI(baseURL: base), store: store, browser: person.browser, random: fixedRandom())
                try await store.savePassword(PasswordCredential(user: "alice", password: "correct horse"), for: base)
                let controller = AuthorizationController(requests: [apple.createRequest(), PasswordProvider(server: base, store: store).createRequest()])
                let authorization = try await controller.performRequests()
                #expect(authorization.credential == .password(PasswordCredential(user: "alice", password: "correct horse")))
                #expect(person.openedURLs.isEmpty)
            }
        }
    }

    @Test("reuses the saved Apple user while authorized (implicit), asks again with login or once revoked")
    func implicitReuse() async throws {
        let server = StandInJuiceServer()
        try await server.run { base in
            try await TemporaryDirectory.with { temp in
                let person = try ScriptedPerson(in: temp)
                let store = CredentialStore(directory: temp.url)
                let provider = AppleIDProvider(
                    server: JuiceServerAPI(baseURL: base), store: store, browser: person.browser, receiver: LoopbackReceiver(timeout: .seconds(120)),
                    random: fixedRandom())
                async let page = person.visit(0)
                _ = try await JuiceSignIn(provider: provider).signInWithApple()
                _ = try await page

                let reused = try await AuthorizationController(requests: [provider.createRequest()])
                    .performRequests(options: .preferImmediatelyAvailableCredentials)
                guard case .appleID(let credential) = reused.credential else { Issue.record("not an Apple ID credential"); return }
                #expect(credential.user == server.subject)
                #expect(credential.identityToken == nil)
                #expect(person.openedURLs.count == 1)

                var login = provider.createRequest()
                login.requestedOperation = .operationLogin
                await #expect(throws: AuthorizationError.notInteractive("")) {
                    try await AuthorizationController(requests: [login]).performRequests(options: .preferImmediatelyAvailableCredentials)
                }

                server.state.withLock { $0.credentialState = "revoked" }
                await #expect(throws: AuthorizationError.notInteractive("")) {
                    try await AuthorizationController(requests: [provider.createRequest()]).performRequests(options: .preferImmediatelyAvailableCredentials)
                }
                async let second = person.visit(1)
                let fresh = try await AuthorizationController(requests: [provider.createRequest()]).performRequests()
                _ = try await second
                guard case .appleID(let freshCredential) = fresh.credential else { Issue.record("not an Apple ID credential"); return }
                #expect(freshCredential.identityToken != nil)
            }
        }
    }

    @Test("with nothing to offer: notInteractive when the person may not be asked, notHandled otherwise")
    func nothingToOffer() async throws {
        try await TemporaryDirectory.with { temp in
            let store = CredentialStore(directory: temp.url)
            let passwords = PasswordProvider(server: URL(string: "http://127.0.0.1:1")!, store: store)
            await #expect(throws: AuthorizationError.notInteractive("")) {
                try await AuthorizationController(requests: [passwords.createRequest()]).performRequests(options: .preferImmediatelyAvailableCredentials)
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
