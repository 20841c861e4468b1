import Foundation
import JuiceEncodings
import JuiceTestSupport
import Testing

@testable import JuiceClient

/// The software authenticator behind ``PlatformPublicKeyCredentialProvider``, judged by python-fido2
/// (not our code), and its passkeys in the credential store.
@Suite("Software authenticator: fido2-verified output, 0600 keys, refused hostile stores")
struct SoftwareAuthenticatorTests {
    static let rpID = "login.juice.test"
    static let origin = "https://login.juice.test"
    static let userID = Data("user-handle-0001".utf8)

    static var hasFido2: Bool { BrowserTools.pythonCanImport("fido2") }

    /// A new passkey of ``rpID`` in `store`.
    static func register(
        _ store: CredentialStore, challenge: Data = Data(repeating: 0xC1, count: 32), excluded: [Data] = []
    ) async throws(AuthorizationError) -> PlatformPublicKeyCredentialRegistration {
        let provider = PlatformPublicKeyCredentialProvider(relyingPartyIdentifier: rpID, store: store, origin: origin)
        var request = provider.createCredentialRegistrationRequest(challenge: challenge, name: "alice", userID: userID)
        request.excludedCredentials = excluded.map(PlatformPublicKeyCredentialDescriptor.init(credentialID:))
        guard
            case .publicKeyCredentialRegistration(let registration) = try await AuthorizationController(requests: [request]).performRequests()
                .credential
        else {
            throw .unknown("not a registration")
        }
        return registration
    }

    /// An assertion over `challenge` by a passkey of `rpID` in `store`, answered without the person.
    static func assert(
        _ store: CredentialStore, challenge: Data, rpID: String = rpID, allowed: [Data] = []
    ) async throws(AuthorizationError) -> PlatformPublicKeyCredentialAssertion {
        let provider = PlatformPublicKeyCredentialProvider(relyingPartyIdentifier: rpID, store: store, origin: origin)
        var request = provider.createCredentialAssertionRequest(challenge: challenge)
        request.allowedCredentials = allowed.map(PlatformPublicKeyCredentialDescriptor.init(credentialID:))
        let authorization = try await AuthorizationController(requests: [request]).performRequests(options: .preferImmediatelyAvailableCredentials)
        guard case .publicKeyCredentialAssertion(let assertion) = authorization.credential else { throw .unknown("not an assertion") }
        return assertion
    }

    @Test(
        "python-fido2 parses the attestation (none, AAGUID zero, UP|UV, ES256) and verifies every assertion; counters rise",
        .enabled(if: hasFido2 || BrowserTools.requireAll, "needs python3 with fido2 (python3 -m pip install fido2)"))
    func verifiedByFido2() async throws {
        try #require(Self.hasFido2, "python3 cannot import fido2")
        try await TemporaryDirectory.with("passkey-fido2") { temp in
            let store = CredentialStore(directory: temp.file("juice"))
            let registrationChallenge = Data((0..<32).map { UInt8($0) })
            let registration = try await Self.register(store, challenge: registrationChallenge)
            let id = Base64URL.encode(registration.credentialID)
            var assertions: [[String: Any]] = []
            for round in 1...3 {
                let challenge = Data(repeating: UInt8(round), count: 32)
                let assertion = try await Self.assert(store, challenge: challenge)
                #expect(assertion.credentialID == registration.credentialID)
                assertions.append([
                    "challenge": Base64URL.encode(challenge),
                    "response": [
                        "id": id, "rawId": id, "type": "public-key",
                        "response": [
                            "clientDataJSON": Base64URL.encode(assertion.rawClientDataJSON),
                            "authenticatorData": Base64URL.encode(assertion.rawAuthenticatorData),
                            "signature": Base64URL.encode(assertion.signature), "userHandle": Base64URL.encode(assertion.userID),
                        ],
                    ] as [String: Any],
                ])
            }
            let ceremonies: [String: Any] = [
                "rpId": Self.rpID, "origin": Self.origin, "userHandle": Base64URL.encode(Self.userID),
                "registration": [
                    "challenge": Base64URL.encode(registrationChallenge),
                    "response": [
                        "id": id, "rawId": id, "type": "public-key",
                        "response": [
                            "clientDataJSON": Base64URL.encode(registration.rawClientDataJSON),
                            "attestationObject": Base64URL.encode(try #require(registration.rawAttestationObject)),
                        ],
                    ] as [String: Any],
                ],
                "assertions": assertions,
            ]
            let input = temp.file("ceremonies.json")
            try JSONSerialization.data(withJSONObject: ceremonies).write(to: input)
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/verify_passkey.py")
            let (status, output) = try await BrowserTools.runPython(
                script: script, arguments: [input.path], log: temp.file("fido2.log"), limit: .seconds(120))
            #expect(status == 0, "\(output)")
            #expect(output.contains(#""ok": true, "counters": [1, 2, 3], "credentialIdLength": 32"#), "\(output)")
        }
    }

    @Test("clientDataJSON carries the ceremony type, the challenge as base64url and the origin, not cross-origin")
    func clientData() async throws {
        try await TemporaryDirectory.with("passkey-client-data") { temp in
            let store = CredentialStore(directory: temp.url)
            let registration = try await Self.register(store, challenge: Data([0xFB, 0xFF, 0x01]))
            let created = try #require(try JSONSerialization.jsonObject(with: registration.rawClientDataJSON) as? [String: Any])
            #expect(created["type"] as? String == "webauthn.create")
            #expect(created["challenge"] as? String == "-_8B")
            #expect(created["origin"] as? String == Self.origin)
            #expect(created["crossOrigin"] as? Bool == false)
            let assertion = try await Self.assert(store, challenge: Data([0x01]))
            let signed = try #require(try JSONSerialization.jsonObject(with: assertion.rawClientDataJSON) as? [String: Any])
            #expect(signed["type"] as? String == "webauthn.get")
            #expect(signed["challenge"] as? String == "AQ")
        }
    }

    @Test("passkeys.json is 0600 in a 0700 directory, keeps the counter, and no description shows the key")
    func storeFile() async throws {
        try await TemporaryDirectory.with("passkey-store") { temp in
            let store = CredentialStore(directory: temp.file("juice"))
            let registration = try await Self.register(store)
            let file = temp.file("juice/passkeys.json").path
            #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)
            #expect(try FileManager.default.attributesOfItem(atPath: temp.file("juice").path)[.posixPermissions] as? Int == 0o700)
            _ = try await Self.assert(store, challenge: Data([1]))
            _ = try await Self.assert(store, challenge: Data([2]))
            let saved = try #require(try await CredentialStore(directory: temp.file("juice")).passkeys(relyingPartyIdentifier: Self.rpID).first)
            #expect(saved.credentialID == registration.credentialID)
            #expect(saved.signCount == 2, "the counter is kept across stores")
            #expect(saved.userID == Self.userID)
            #expect(!"\(saved)".contains(saved.privateKey.base64EncodedString()))
            #expect(!String(reflecting: saved).contains(saved.privateKey.base64EncodedString()))
            #expect(try await store.passkeyCredentialIDs(relyingPartyIdentifier: "other.test").isEmpty)
            #expect(try await store.passkeyCredentialIDs() == [registration.credentialID])
        }
    }

    @Test("an assertion answers from saved passkeys only: none for the RP or none allowed is notHandled")
    func notHandled() async throws {
        try await TemporaryDirectory.with("passkey-none") { temp in
            let store = CredentialStore(directory: temp.url)
            let provider = PlatformPublicKeyCredentialProvider(relyingPartyIdentifier: Self.rpID, store: store)
            await #expect(throws: AuthorizationError.notHandled("")) {
                try await provider.createCredentialAssertionRequest(challenge: Data([1])).perform(interactive: true)
            }
            let registration = try await Self.register(store)
            await #expect(throws: AuthorizationError.notInteractive(""), "another RP's passkey is not offered") {
                try await Self.assert(store, challenge: Data([1]), rpID: "elsewhere.test")
            }
            await #expect(throws: AuthorizationError.notInteractive(""), "a passkey the RP does not allow is not offered") {
                try await Self.assert(store, challenge: Data([1]), allowed: [Data(repeating: 7, count: 32)])
            }
            let allowed = try await Self.assert(store, challenge: Data([1]), allowed: [registration.credentialID])
            #expect(allowed.credentialID == registration.credentialID)
        }
    }

    @Test("creating a passkey needs the person; one the RP excludes is matchedExcludedCredential; a bad request fails")
    func registrationRules() async throws {
        try await TemporaryDirectory.with("passkey-registration") { temp in
            let store = CredentialStore(directory: temp.url)
            let provider = PlatformPublicKeyCredentialProvider(relyingPartyIdentifier: Self.rpID, store: store)
            let request = provider.createCredentialRegistrationRequest(challenge: Data([1]), name: "alice", userID: Self.userID)
            await #expect(throws: AuthorizationError.notInteractive("")) {
                try await AuthorizationController(requests: [request]).performRequests(options: .preferImmediatelyAvailableCredentials)
            }
            #expect(!FileManager.default.fileExists(atPath: temp.file("passkeys.json").path), "nothing was created")
            let first = try await Self.register(store)
            await #expect(throws: AuthorizationError.matchedExcludedCredential("")) {
                try await Self.register(store, excluded: [first.credentialID])
            }
            #expect(try await store.passkeyCredentialIDs().count == 1)
            let second = try await Self.register(store, excluded: [Data(repeating: 9, count: 32)])
            #expect(try await store.passkeyCredentialIDs() == [second.credentialID, first.credentialID], "the newest first")
            await #expect(throws: AuthorizationError.failed("")) {
                try await provider.createCredentialRegistrationRequest(challenge: Data(), name: "alice", userID: Self.userID).perform(
                    interactive: true)
            }
            await #expect(throws: AuthorizationError.failed("")) {
                try await provider.createCredentialRegistrationRequest(challenge: Data([1]), name: "a", userID: Data(count: 65)).perform(
                    interactive: true)
            }
        }
    }

    /// Edits of a valid `passkeys.json` that no authenticator wrote.
    enum Tampering: String, CaseIterable, Sendable {
        case notJSON, futureVersion, keyOutOfRange, emptyCredentialID, longUserHandle, duplicate, counterType, exhaustedCounter

        func apply(to object: inout [String: Any]) {
            var passkeys = object["passkeys"] as? [[String: Any]] ?? []
            switch self {
            case .notJSON: return
            case .futureVersion: object["version"] = 2
            case .keyOutOfRange: passkeys[0]["privateKey"] = Data(repeating: 0xFF, count: 32).base64EncodedString()
            case .emptyCredentialID: passkeys[0]["credentialID"] = ""
            case .longUserHandle: passkeys[0]["userID"] = Data(count: 65).base64EncodedString()
            case .duplicate: passkeys.append(passkeys[0])
            case .counterType: passkeys[0]["signCount"] = 4_294_967_296
            case .exhaustedCounter: passkeys[0]["signCount"] = 4_294_967_295
            }
            object["passkeys"] = passkeys
        }
    }

    @Test("a tampered or corrupt passkeys.json is refused with corrupt, never used or overwritten", arguments: Tampering.allCases)
    func tampered(_ tampering: Tampering) async throws {
        try await TemporaryDirectory.with("passkey-tampered") { temp in
            let store = CredentialStore(directory: temp.url)
            _ = try await Self.register(store)
            let file = temp.file("passkeys.json")
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            tampering.apply(to: &object)
            let edited = tampering == .notJSON ? Data("{\"version\": 1, \"passkeys\": [".utf8) : try JSONSerialization.data(withJSONObject: object)
            try edited.write(to: file)
            if tampering == .exhaustedCounter {
                #expect(try await store.passkeyCredentialIDs().count == 1, "the file itself is well formed")
            } else {
                await #expect(throws: CredentialStoreError.corrupt("")) { try await store.passkeyCredentialIDs() }
            }
            do throws(AuthorizationError) {
                _ = try await Self.assert(store, challenge: Data([1]))
                Issue.record("a tampered store signed")
            } catch {
                #expect(error.code == .failed)
                #expect(error.reason.contains("passkeys.json"), "\(error.reason)")
            }
            #expect(try Data(contentsOf: file) == edited, "the file was left as it was")
        }
    }
}
