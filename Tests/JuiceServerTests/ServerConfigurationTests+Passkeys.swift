import AppleSignIn
import Foundation
import JuiceEncodings
import JuiceTestSupport
import Testing

@testable import JuiceServer

extension ServerConfigurationTests {
    @Test(
        "passkey_rp_id defaults to the public URL's host and may be a domain it is under; passkey_origins is a list (JUICE_PASSKEY_ORIGINS: a, b)"
    )
    func passkeySettings() throws {
        let base = """
            "client_id": "com.example.juice.web", "team_id": "ABCDE12345", "key_id": "KEY1234567", "private_key_path": "AuthKey_KEY1234567.p8",
            "public_url": "https://login.juice.example.com", "refresh_token_key": "\(key)"
            """
        let plain = try ServerConfiguration.load(file: try write("{\(base)}"), environment: [:], dataDirectory: directory)
        #expect(plain.resolvedPasskeyRelyingPartyID == "login.juice.example.com")
        #expect(plain.passkeyOrigins.isEmpty)
        #expect(plain.passkeyAcceptedOrigins == ["https://login.juice.example.com"])
        let parent = try ServerConfiguration.load(
            file: try write("{\(base), \"passkey_rp_id\": \"Juice.Example.com\", \"passkey_origins\": [\"android:apk-key-hash:abc\"]}"),
            environment: [:], dataDirectory: directory)
        #expect(parent.resolvedPasskeyRelyingPartyID == "juice.example.com")
        #expect(parent.passkeyOrigins == ["android:apk-key-hash:abc"])
        #expect(
            parent.passkeyAcceptedOrigins == ["https://login.juice.example.com", "https://juice.example.com", "android:apk-key-hash:abc"],
            "an Apple app's origin for the parent RP ID is accepted beside the site's")
        let environment = try ServerConfiguration.load(
            file: try write("{\(base)}"), environment: ["JUICE_PASSKEY_ORIGINS": "android:apk-key-hash:a, android:apk-key-hash:b"],
            dataDirectory: directory)
        #expect(environment.passkeyOrigins == ["android:apk-key-hash:a", "android:apk-key-hash:b"])
        for extra in [
            #", "passkey_rp_id": "example.net""#, #", "passkey_rp_id": "ice.example.com""#, #", "passkey_rp_id": """#,
            #", "passkey_origins": "https://juice.example.com""#, #", "passkey_origins": ["no origin"]"#,
        ] {
            let file = try write("{\(base)\(extra)}")
            do {
                _ = try ServerConfiguration.load(file: file, environment: [:], dataDirectory: directory)
                Issue.record("\(extra) was accepted")
            } catch {
                #expect(error.problems.map(\.field).allSatisfy { $0.hasPrefix("passkey_") }, "\(extra)")
                #expect(error.problems.count == 1, "\(extra)")
            }
        }
    }

    @Test("passkey_related_origins: https origins (JUICE_PASSKEY_RELATED_ORIGINS: a, b), at most 5, no paths, no duplicates, no IP addresses")
    func passkeyRelatedOrigins() throws {
        let base = """
            "client_id": "com.example.juice.web", "team_id": "ABCDE12345", "key_id": "KEY1234567", "private_key_path": "AuthKey_KEY1234567.p8",
            "public_url": "https://login.juice.example.com", "refresh_token_key": "\(key)"
            """
        let listed = try ServerConfiguration.load(
            file: try write("{\(base), \"passkey_related_origins\": [\"https://Juice.example.org\", \"https://juice.example.net:8443\"]}"),
            environment: [:], dataDirectory: directory)
        #expect(listed.passkeyRelatedOrigins == ["https://juice.example.org", "https://juice.example.net:8443"])
        let environment = try ServerConfiguration.load(
            file: try write("{\(base)}"), environment: ["JUICE_PASSKEY_RELATED_ORIGINS": "https://a.example, https://b.example"],
            dataDirectory: directory)
        #expect(environment.passkeyRelatedOrigins == ["https://a.example", "https://b.example"])
        let five = (1...5).map { "\"https://site\($0).example\"" }.joined(separator: ", ")
        #expect(
            try ServerConfiguration.load(
                file: try write("{\(base), \"passkey_related_origins\": [\(five)]}"), environment: [:], dataDirectory: directory
            )
            .passkeyRelatedOrigins.count == 5)
        let six = (1...6).map { "\"https://site\($0).example\"" }.joined(separator: ", ")
        for list in [
            "[\(six)]", #"["http://juice.example.org"]"#, #"["https://juice.example.org/path"]"#, #"["https://juice.example.org/"]"#,
            #"["https://user@juice.example.org"]"#, #"["https://juice.example.org?q"]"#, #"["https://127.0.0.1"]"#, #"["https://localhost"]"#,
            #"["https://juice.example.org:0"]"#, #"["https://juice.example.org:99999"]"#, #"["https://a.example", "https://A.example"]"#,
            #"["android:apk-key-hash:abc"]"#, #""https://juice.example.org""#, #"["https://-bad.example"]"#,
        ] {
            let file = try write("{\(base), \"passkey_related_origins\": \(list)}")
            do {
                _ = try ServerConfiguration.load(file: file, environment: [:], dataDirectory: directory)
                Issue.record("\(list) was accepted")
            } catch {
                #expect(error.problems.map(\.field) == ["passkey_related_origins"], "\(list)")
            }
        }
    }
}
