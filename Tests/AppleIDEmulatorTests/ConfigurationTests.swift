import Crypto
import Foundation
import JuiceEncodings
import JuiceTestSupport
import Testing

@testable import AppleIDEmulator

@Suite("Configuration and team keys")
struct ConfigurationTests {
    static func json(_ text: String) -> Data { Data(text.utf8) }

    @Test("The documented JSON shape reads and round-trips")
    func valid() throws {
        let pem = P256.Signing.PrivateKey().publicKey.pemRepresentation
        let text = """
            {"admin_token": "secret-admin",
             "teams": [{"team_id": "ABCDE12345", "keys": [{"key_id": "KEY1234567", "public_key_pem": \(String(data: try JSONEncoder().encode(pem), encoding: .utf8)!)}]}],
             "apps": [{"team_id": "ABCDE12345", "bundle_id": "com.example.app", "services_ids": ["com.example.app.web"],
                       "redirect_uris": ["https://app.example.com/auth/apple/callback"], "notification_url": "https://app.example.com/apple/notifications",
                       "email_sources": ["example.com"], "allow_local_redirects": false}],
             "apple_ids": [{"email": "alice@example.org", "password": "pw", "first_name": "Alice", "last_name": "Appleseed"}]}
            """
        let configuration = try EmulatorConfiguration(json: Self.json(text))
        #expect(configuration.apps[0].servicesIDs == ["com.example.app.web"])
        #expect(configuration.appleIDs[0].firstName == "Alice")
        #expect(!"\(configuration)".contains("secret-admin"))
        #expect(!"\(configuration.appleIDs[0])".contains("pw)"))
        #expect(try EmulatorConfiguration(json: configuration.jsonData()) == configuration)
    }

    @Test("Every problem is reported at once, each with its field")
    func problems() throws {
        let text = """
            {"admin_tokn": "x",
             "teams": [{"team_id": "abc", "keys": [{"key_id": "K1", "public_key_pem": "nope"}]}, {"team_id": "ABCDE12345"}, {"team_id": "ABCDE12345"}],
             "apps": [{"team_id": "ZZZZZ99999", "bundle_id": "app", "services_ids": ["com.example.web"],
                       "redirect_uris": ["http://app.example.com/cb", "https://127.0.0.1/cb", "https://app.example.com/cb#frag", "https://localhost/cb"],
                       "notification_url": "ftp://x"}],
             "apple_ids": [{"email": "not-an-email", "password": ""}, {"email": "A@example.org", "password": "p"}, {"email": "a@example.org", "password": "p"}]}
            """
        do {
            _ = try EmulatorConfiguration(json: Self.json(text))
            Issue.record("an invalid configuration was accepted")
        } catch {
            let fields = Set(error.problems.map(\.field))
            for field in [
                "admin_tokn", "teams[0].team_id", "teams[0].keys[0].key_id", "teams[0].keys[0].public_key_pem", "teams[2].team_id",
                "apps[0].team_id", "apps[0].bundle_id", "apps[0].redirect_uris[0]", "apps[0].redirect_uris[1]", "apps[0].redirect_uris[2]",
                "apps[0].redirect_uris[3]", "apps[0].notification_url", "apple_ids[0].email", "apple_ids[0].password", "apple_ids[2].email",
            ] {
                #expect(fields.contains(field), "no problem reported for \(field)")
            }
            #expect(error.reason.contains("must use https"))
        }
    }

    @Test("Type errors and malformed JSON name the field or the file")
    func typeErrors() {
        #expect(throws: EmulatorConfigurationError.self) { try EmulatorConfiguration(json: Self.json("{")) }
        do {
            _ = try EmulatorConfiguration(json: Self.json(#"{"apps": [{"team_id": "ABCDE12345", "bundle_id": 3}]}"#))
        } catch {
            #expect(error.problems.first?.field == "apps[0].bundle_id")
        }
    }

    @Test("new-key writes a 0600 PKCS#8 P-256 key, refuses to overwrite, and its public PEM is accepted")
    func newKey() throws {
        let temporary = try TemporaryDirectory("emulator-tests")
        defer { temporary.remove() }
        let url = temporary.file("AuthKey.p8")
        let key = try TeamKeyGenerator.generate(teamID: "ABCDE12345", writingTo: url)
        #expect(key.keyID.range(of: "^[A-Z0-9]{10}$", options: .regularExpression) != nil)
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let pem = try String(contentsOf: url, encoding: .utf8)
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let privateKey = try P256.Signing.PrivateKey(pemRepresentation: pem)
        #expect(privateKey.publicKey.pemRepresentation == key.publicKeyPEM)
        #expect(throws: TeamKeyGenerator.Failure.self) { try TeamKeyGenerator.generate(teamID: "ABCDE12345", writingTo: url) }
        #expect(throws: TeamKeyGenerator.Failure.self) { try TeamKeyGenerator.generate(teamID: "bad", writingTo: url.appendingPathExtension("2")) }
        let configuration = EmulatorConfiguration(teams: [.init(teamID: "ABCDE12345", keys: [key.configurationKey])], apps: [], appleIDs: [])
        try configuration.validate()
    }

    @Test("The development configuration is valid and its demo Apple ID signs in on http://localhost")
    func development() async throws {
        let team = TestTeam(teamID: "JUICE00001", keyID: "JUICEKEY01")
        let configuration = EmulatorConfiguration.development(
            teamID: team.teamID, key: team.configuration.keys[0], notificationURL: "http://localhost:8080/apple/notifications"
        )
        try configuration.validate()
        try await RunningEmulator.with(configuration: configuration) { emulator in
            let parameters = WebFlow.parameters(
                clientID: "com.example.apple-samplecode.juice.web", redirectURI: "http://localhost:8080/auth/apple/callback")
            let page = try await WebFlow.signIn(emulator, account: EmulatorConfiguration.demoAppleID, parameters: parameters)
            #expect(WebFlow.formAction(page.body) == "http://localhost:8080/auth/apple/callback")
            #expect(WebFlow.hiddenInputs(page.body)["user"]?.contains("Johnny") == true)
        }
    }

    @Test("buildEmulatorApplication refuses an invalid configuration")
    func buildRefuses() async throws {
        let configuration = EmulatorConfiguration(teams: [], apps: [.init(teamID: "NOPE", bundleID: "x")], appleIDs: [])
        let temporary = try TemporaryDirectory("emulator-tests")
        defer { temporary.remove() }
        await #expect(throws: EmulatorConfigurationError.self) {
            _ = try await buildEmulatorApplication(
                configuration: configuration, dataDirectory: temporary.url,
                random: EmulatorRandom.system.withSigningKeys(pem: TestSigningKeys.nextPEM))
        }
    }
}
