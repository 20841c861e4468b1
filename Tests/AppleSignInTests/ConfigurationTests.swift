import Crypto
import CryptoExtras
import Foundation
import JuiceEncodings
import JuiceTestSupport
import Testing

@testable import AppleSignIn

@Suite("Configuration: Apple's config.json shape, every problem reported precisely")
final class ConfigurationTests {
    let temporary: TemporaryDirectory
    var directory: URL { temporary.url }

    init() throws {
        temporary = try TemporaryDirectory("config")
        try temporary.writePrivate("AuthKey_KEY1234567.p8", TestKeys.team.pemRepresentation)
    }

    deinit { temporary.remove() }

    func load(_ json: String) throws(ConfigurationError) -> AppleSignInConfiguration {
        try AppleSignInConfiguration(json: Data(json.utf8), baseDirectory: directory)
    }

    func problems(_ json: String) -> [String: String] {
        do {
            _ = try load(json)
            return [:]
        } catch {
            return Dictionary(error.problems.map { ($0.field, $0.message) }, uniquingKeysWith: { $0 + "; " + $1 })
        }
    }

    @Test("a complete configuration loads, with the key read relative to the file")
    func valid() throws {
        let configuration = try load(
            """
            {"client_id": "com.example.app.web", "team_id": "ABCDE12345", "key_id": "KEY1234567",
             "redirect_uri": "https://app.example.com/auth/apple/callback", "scope": "name email",
             "private_key_path": "AuthKey_KEY1234567.p8", "additional_client_ids": ["com.example.app"]}
            """)
        #expect(configuration.clientIDs == ["com.example.app.web", "com.example.app"])
        #expect(configuration.scopes == [.name, .email])
        #expect(configuration.appleBaseURL.absoluteString == "https://appleid.apple.com")
        #expect(configuration.issuer == "https://appleid.apple.com")
        #expect(configuration.privateKey.publicKey.rawRepresentation == TestKeys.team.publicKey.rawRepresentation)
    }

    @Test("an emulator base URL and inline PEM are accepted; the issuer follows the base URL unless given")
    func emulator() throws {
        let pem = TestKeys.team.pemRepresentation.replacingOccurrences(of: "\n", with: "\\n")
        let configuration = try load(
            """
            {"client_id": "com.example.app", "team_id": "ABCDE12345", "key_id": "KEY1234567",
             "private_key": "\(pem)", "apple_base_url": "http://127.0.0.1:8081/"}
            """)
        #expect(configuration.issuer == "http://127.0.0.1:8081")
    }

    @Test("every problem is reported at once, each on its field")
    func everyProblem() {
        let found = problems(
            """
            {"client_id": "", "team_id": "ABCDE1234", "key_id": "key1234567", "redirect_uri": "http://app.example.com/cb",
             "scope": "name phone", "private_key_path": "missing.p8", "apple_base_url": "not a url", "extra": 1}
            """)
        #expect(found["client_id"] == "must not be empty")
        #expect(found["team_id"]?.contains("10 characters") == true)
        #expect(found["key_id"]?.contains("uppercase") == true)
        #expect(found["redirect_uri"]?.contains("https") == true)
        #expect(found["scope"]?.contains("phone") == true)
        #expect(found["private_key_path"]?.contains("cannot read") == true)
        #expect(found["apple_base_url"]?.contains("absolute URL") == true)
        #expect(found["extra"] == "is not a known setting")
    }

    @Test("a configuration file that cannot be read says why in the system's words")
    func unreadableFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("config.json")
        let error = #expect(throws: ConfigurationError.self) { try AppleSignInConfiguration(contentsOf: missing) }
        #expect(error?.problems.map(\.message) == ["cannot read \(missing.path): No such file or directory"])
        // A directory where the file should be.
        let folder = #expect(throws: ConfigurationError.self) { try AppleSignInConfiguration(contentsOf: directory) }
        #expect(folder?.problems.first?.message == "cannot read \(directory.path): Is a directory")
    }

    @Test("a key that is not a P-256 PKCS#8 key is refused, and the key never appears in the message")
    func wrongKeys() throws {
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048).pkcs8PEMRepresentation
        let p384 = P384.Signing.PrivateKey().pemRepresentation
        let sec1 = P256.Signing.PrivateKey().derRepresentation.base64EncodedString()
        for (name, pem) in [
            ("rsa.p8", rsa), ("p384.p8", p384), ("sec1.p8", "-----BEGIN EC PRIVATE KEY-----\n\(sec1)\n-----END EC PRIVATE KEY-----"),
            ("junk.p8", "hello"),
        ] {
            try pem.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
            let found = problems(#"{"client_id": "a", "team_id": "ABCDE12345", "key_id": "KEY1234567", "private_key_path": "\#(name)"}"#)
            let message = try #require(found["private_key_path"], "\(name) was accepted")
            #expect(message.contains("PKCS#8") || message.contains("P-256"))
            #expect(!message.contains("MII"))
        }
    }

    @Test("missing fields and a document that is not JSON are reported")
    func missing() {
        let found = problems("{}")
        #expect(Set(found.keys) == ["client_id", "team_id", "key_id", "private_key_path"])
        #expect(problems("[1,2]")["config"] != nil)
        #expect(
            problems(
                #"{"client_id": "a", "team_id": "ABCDE12345", "key_id": "KEY1234567", "private_key_path": "AuthKey_KEY1234567.p8", "private_key": "x"}"#
            )["private_key"] != nil)
    }
}
