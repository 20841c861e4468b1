import Foundation
import JuiceEncodings
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import JuiceClient

/// Passkeys between JuiceClient and the real Juice server over real HTTP (SQLite): the server's WebAuthn
/// relying party judges the software authenticator's answers.
@Suite("Passkey sign-in with the real server: register, sign in, counters, refusals")
struct PasskeySignInTests {
    /// The live server, its API and a directory of the test's own.
    func withServer(_ label: String, _ body: @Sendable (JuiceStack, JuiceServerAPI, TemporaryDirectory) async throws -> Void) async throws {
        try await JuiceStack.with(database: .sqlite) { juice in
            try await TemporaryDirectory.with(label) { temp in try await body(juice, JuiceServerAPI(baseURL: juice.serverBaseURL), temp) }
        }
    }

    @Test("a passkey added to a password account signs in to it, with a rising counter, and the session is saved")
    func registerAndSignIn() async throws {
        try await withServer("passkey-live") { juice, api, temp in
            let store = CredentialStore(directory: temp.url)
            let account = try await api.createAccount(PasswordCredential(user: "pip", password: "fresh-squeezed-42"))
            let passkeys = PasskeySignIn(server: api, store: store)
            #expect(passkeys.origin == juice.serverBaseURL.absoluteString)
            let added = try await passkeys.addPasskey(name: "  Laptop ", sessionToken: account.token)
            #expect(added.name == "Laptop")
            #expect(added.algorithm == "ES256")
            #expect(added.backupEligible == false && added.backedUp == false, "a device-bound passkey")
            let rpID = try #require(juice.serverBaseURL.host)
            #expect(try await store.passkeyCredentialIDs(relyingPartyIdentifier: rpID).map { Base64URL.encode($0) } == [added.id])

            for round in 1...3 {
                let session = try await passkeys.signIn()
                #expect(session.account.id == account.account.id)
                #expect(session.account.username == "pip")
                #expect(try await store.session(for: api.baseURL)?.token == session.token, "the session is saved")
                #expect(try await store.passkeys(relyingPartyIdentifier: rpID).first?.signCount == UInt32(round))
            }
            let listed = try await api.passkeys(sessionToken: account.token)
            #expect(listed.map(\.id) == [added.id])
            #expect(listed.first?.lastUsedAt != nil)

            do {
                _ = try await passkeys.addPasskey(name: nil, sessionToken: account.token)
                Issue.record("a second passkey of the same account was made here")
            } catch let error as AuthorizationError {
                #expect(error.code == .matchedExcludedCredential, "the server excludes the passkey this machine holds")
            }
        }
    }

    @Test("a copied store that signs after the original (counter gone back) is refused: counter_regressed")
    func clonedStore() async throws {
        try await withServer("passkey-clone") { juice, api, temp in
            let original = CredentialStore(directory: temp.file("original"))
            let account = try await api.createAccount(PasswordCredential(user: "clone", password: "fresh-squeezed-42"))
            _ = try await PasskeySignIn(server: api, store: original).addPasskey(name: "Original", sessionToken: account.token)
            try FileManager.default.createDirectory(at: temp.file("copy"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: temp.file("original/passkeys.json"), to: temp.file("copy/passkeys.json"))
            _ = try await PasskeySignIn(server: api, store: original).signIn()
            _ = try await PasskeySignIn(server: api, store: original).signIn()
            await #expect(throws: JuiceServerError(.counterRegressed, "")) {
                try await PasskeySignIn(server: api, store: CredentialStore(directory: temp.file("copy"))).signIn()
            }
        }
    }

    @Test("another name for the server is another origin: the server refuses the passkey and the store forgets it")
    func otherName() async throws {
        try await withServer("passkey-other-name") { juice, api, temp in
            let port = try #require(juice.serverBaseURL.port)
            let account = try await api.createAccount(PasswordCredential(user: "alias", password: "fresh-squeezed-42"))
            let store = CredentialStore(directory: temp.url)
            let alias = PasskeySignIn(server: JuiceServerAPI(baseURL: try #require(URL(string: "http://localhost:\(port)"))), store: store)
            #expect(alias.origin == "http://localhost:\(port)")
            await #expect(throws: JuiceServerError(.originMismatch, "")) {
                try await alias.addPasskey(name: "Alias", sessionToken: account.token)
            }
            #expect(try await store.passkeyCredentialIDs().isEmpty, "the refused passkey's key is gone")
        }
    }

    @Test("the server refuses a passkey it no longer has, one from another origin, and none saved is notHandled")
    func refusals() async throws {
        try await withServer("passkey-refusals") { juice, api, temp in
            let store = CredentialStore(directory: temp.file("store"))
            await #expect(throws: AuthorizationError.notHandled("")) { try await PasskeySignIn(server: api, store: store).signIn() }
            #expect(try await store.session(for: api.baseURL) == nil)

            // Another origin for the same RP ID: a phishing page's answer.
            let account = try await api.createAccount(PasswordCredential(user: "gone", password: "fresh-squeezed-42"))
            let options = try await api.beginPasskeyRegistration(sessionToken: account.token)
            let foreign = PlatformPublicKeyCredentialProvider(
                relyingPartyIdentifier: options.relyingPartyIdentifier, store: store, origin: "http://evil.test")
            guard
                case .publicKeyCredentialRegistration(let registration) = try await AuthorizationController(
                    requests: [options.registrationRequest(from: foreign)]
                ).performRequests().credential
            else { throw AuthorizationError.unknown("not a registration") }
            await #expect(throws: JuiceServerError(.originMismatch, "")) {
                try await api.finishPasskeyRegistration(registration, name: "Phished", sessionToken: account.token)
            }
            #expect(try await api.passkeys(sessionToken: account.token).isEmpty)
            #expect(try await store.passkeyCredentialIDs().count == 1, "made by the provider, not refused through PasskeySignIn")
            try await store.removePasskey(credentialID: registration.credentialID)
            #expect(try await store.passkeyCredentialIDs().isEmpty)

            let other = CredentialStore(directory: temp.file("other"))
            let added = try await PasskeySignIn(server: api, store: other).addPasskey(name: "Doomed", sessionToken: account.token)
            try await api.removePasskey(id: added.id, sessionToken: account.token)
            do {
                _ = try await PasskeySignIn(server: api, store: other).signIn()
                Issue.record("a removed passkey signed in")
            } catch let error as JuiceServerError {
                #expect(error.code == .unknownCredential && error.serverCode == "unknown_credential")
                #expect(error.reason == "no account has this passkey")
            }
        }
    }
}
