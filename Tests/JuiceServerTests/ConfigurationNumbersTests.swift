import AppleSignIn
import Crypto
import Foundation
import JuiceEncodings
import JuiceTestSupport
import Testing

@testable import JuiceServer

@Suite("Configuration numbers: out-of-range or non-integer values are named problems, never a trap")
struct ConfigurationNumbersTests {
    @Test("port, session_lifetime and password_hash_cost refuse 1e22, -1e300, fractions, huge strings and arrays")
    func hostileNumbers() throws {
        let temporary = try TemporaryDirectory("numbers")
        defer { temporary.remove() }
        let directory = temporary.url
        try temporary.writePrivate("AuthKey_KEY1234567.p8", P256.Signing.PrivateKey().pemRepresentation)
        let key = Data(SymmetricKey(size: .bits256).withUnsafeBytes(Array.init)).base64EncodedString()
        for field in ["port", "session_lifetime", "password_hash_cost"] {
            for value in ["1e22", "-1e300", "12.5", #""99999999999999999999""#, #""-1""#, "[1]", "{}", "1.7976931348623157e308"] {
                let file = directory.appendingPathComponent("juice.json")
                try """
                {"client_id": "com.example.juice.web", "team_id": "ABCDE12345", "key_id": "KEY1234567", "private_key_path": "AuthKey_KEY1234567.p8",
                 "public_url": "https://juice.example.com", "refresh_token_key": "\(key)", "\(field)": \(value)}
                """.write(to: file, atomically: true, encoding: .utf8)
                do {
                    _ = try ServerConfiguration.load(file: file, environment: [:], dataDirectory: directory)
                    Issue.record("\(field) = \(value) loaded")
                } catch {
                    #expect(error.problems.map(\.field) == [field], "\(field) = \(value)")
                }
            }
            #expect(throws: ConfigurationError.self) {
                try ServerConfiguration.load(file: nil, environment: ["JUICE_\(field.uppercased())": "1e22"], dataDirectory: directory)
            }
        }
    }
}
