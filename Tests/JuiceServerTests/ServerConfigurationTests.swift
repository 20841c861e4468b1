import AppleSignIn
import Crypto
import Foundation
import Hummingbird
import JuiceEncodings
import JuiceTestSupport
import Testing

@testable import JuiceServer

@Suite("Server configuration: juice.json, environment overrides, precise refusals")
final class ServerConfigurationTests {
    let temporary: TemporaryDirectory
    var directory: URL { temporary.url }
    let keyPath: String

    init() throws {
        temporary = try TemporaryDirectory("config")
        keyPath = try temporary.writePrivate("AuthKey_KEY1234567.p8", P256.Signing.PrivateKey().pemRepresentation).path
    }

    deinit { temporary.remove() }

    func write(_ json: String) throws -> URL {
        let url = directory.appendingPathComponent("juice.json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    var key: String { Data(SymmetricKey(size: .bits256).withUnsafeBytes(Array.init)).base64EncodedString() }

    @Test("a production file loads; the environment and the command line override it")
    func loads() throws {
        let file = try write(
            """
            {"client_id": "com.example.juice.web", "team_id": "ABCDE12345", "key_id": "KEY1234567",
             "private_key_path": "AuthKey_KEY1234567.p8", "additional_client_ids": ["com.example.juice"],
             "public_url": "https://juice.example.com", "refresh_token_key": "\(key)", "session_lifetime": 3600}
            """)
        let configuration = try ServerConfiguration.load(
            file: file, environment: ["JUICE_DATABASE_URL": "sqlite:/var/lib/juice/juice.sqlite", "JUICE_PORT": "9000"],
            overrides: .init(host: "0.0.0.0"), dataDirectory: directory
        )
        #expect(configuration.apple.clientIDs == ["com.example.juice.web", "com.example.juice"])
        #expect(configuration.apple.appleBaseURL.absoluteString == "https://appleid.apple.com")
        #expect(configuration.redirectURI.absoluteString == "https://juice.example.com/auth/apple/callback")
        #expect(configuration.usesSecureCookies)
        #expect(configuration.database == .sqlite(path: "/var/lib/juice/juice.sqlite"))
        #expect(configuration.port == 9000 && configuration.host == "0.0.0.0")
        #expect(configuration.sessionLifetime == 3600)
        let secure = SessionCookies(secure: true, sessionLifetime: 3600).session("token")
        #expect(secure.secure && secure.httpOnly && secure.sameSite == .lax && secure.name == "__Host-juice_session")
    }

    @Test("every problem is reported at once, each naming its field, never a secret")
    func refuses() throws {
        let file = try write(
            """
            {"client_id": "com.example.juice.web", "team_id": "abc", "key_id": "KEY1234567", "private_key_path": "missing.p8",
             "public_url": "http://juice.example.com", "refresh_token_key": "c2hvcnQ=", "redirect_uri": "https://other.example.com/cb",
             "database_url": "mysql://root:hunter2@db/juice", "colour": "orange"}
            """)
        do {
            _ = try ServerConfiguration.load(file: file, environment: [:], dataDirectory: directory)
            Issue.record("an invalid configuration loaded")
        } catch {
            let fields = Set(error.problems.map(\.field))
            #expect(fields.isSuperset(of: ["team_id", "private_key_path", "public_url", "refresh_token_key", "database_url", "colour"]))
            #expect(!error.description.contains("hunter2"))
            #expect(error.problems.first { $0.field == "public_url" }?.message.contains("https") == true)
        }
        do {
            _ = try ServerConfiguration.load(file: nil, environment: [:], dataDirectory: directory)
            Issue.record("an empty configuration loaded")
        } catch {
            #expect(Set(error.problems.map(\.field)).isSuperset(of: ["client_id", "team_id", "key_id", "public_url", "refresh_token_key"]))
        }
    }

    @Test("database URLs: SQLite paths and PostgreSQL URLs parse, passwords are hidden, unknown schemes refused")
    func databaseLocations() throws {
        #expect(try DatabaseLocation(parsing: "juice.sqlite") == .sqlite(path: "juice.sqlite"))
        #expect(try DatabaseLocation(parsing: "sqlite:///tmp/j.sqlite") == .sqlite(path: "/tmp/j.sqlite"))
        let postgres = try DatabaseLocation(parsing: "postgres://juice:s3cret@db.internal:5432/juice")
        #expect(postgres.description == "postgres://juice:***@db.internal:5432/juice")
        #expect(throws: DatabaseLocationError.self) { try DatabaseLocation(parsing: "mysql://x@y/z") }
        #expect(throws: DatabaseLocationError.self) { try DatabaseLocation(parsing: "") }
    }

    @Test("the development refresh-token key is created once with mode 0600 and read back")
    func secretFile() throws {
        let url = directory.appendingPathComponent("refresh-token.key")
        let first = try SecretFile.loadOrCreateKey(at: url)
        let second = try SecretFile.loadOrCreateKey(at: url)
        #expect(first == second)
        let permissions = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        try "garbage".write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: SecretFile.Failure.self) { try SecretFile.loadOrCreateKey(at: url) }
    }
}

extension ServerConfigurationTests {
    @Test("smtp_url and mail_from turn mail on together (also from JUICE_SMTP_URL / JUICE_MAIL_FROM); one without the other or a bad value is named")
    func mailSettings() throws {
        let base = """
            "client_id": "com.example.juice.web", "team_id": "ABCDE12345", "key_id": "KEY1234567", "private_key_path": "AuthKey_KEY1234567.p8",
            "public_url": "https://juice.example.com", "refresh_token_key": "\(key)"
            """
        let none = try ServerConfiguration.load(file: try write("{\(base)}"), environment: [:], dataDirectory: directory)
        #expect(none.mail == nil)
        let configured = try ServerConfiguration.load(
            file: try write("{\(base), \"smtp_url\": \"smtp://127.0.0.1:2525\"}"),
            environment: ["JUICE_MAIL_FROM": "Juice <hello@juice.example.com>"],
            dataDirectory: directory)
        #expect(configured.mail?.smtpHost == "127.0.0.1")
        #expect(configured.mail?.smtpPort == 2525)
        #expect(configured.mail?.sender.address == "hello@juice.example.com")
        for (extra, field) in [
            (#", "smtp_url": "smtp://127.0.0.1""#, "mail_from"), (#", "mail_from": "hello@juice.example.com""#, "smtp_url"),
            (#", "smtp_url": "smtps://mail.example.com", "mail_from": "hello@juice.example.com""#, "smtp_url"),
            (#", "smtp_url": "smtp://mail.example.com", "mail_from": "Juice\r\nBcc: x <hello@juice.example.com>""#, "mail_from"),
        ] {
            let file = try write("{\(base)\(extra)}")
            do {
                _ = try ServerConfiguration.load(file: file, environment: [:], dataDirectory: directory)
                Issue.record("\(extra) was accepted")
            } catch {
                #expect(error.problems.map(\.field) == [field], "\(extra)")
            }
        }
    }
}
