import AppleSignIn
import Foundation
import JuiceEncodings
import JuiceTestSupport
import Testing

@testable import JuiceServer

extension ServerConfigurationTests {
    @Test(
        "idle_timeout, header_timeout, body_timeout, sign_up_limit and password_hash_concurrency load from the file or JUICE_*; out of range is named"
    )
    func securitySettings() throws {
        let base = """
            "client_id": "com.example.juice.web", "team_id": "ABCDE12345", "key_id": "KEY1234567", "private_key_path": "AuthKey_KEY1234567.p8",
            "public_url": "https://juice.example.com", "refresh_token_key": "\(key)"
            """
        let defaults = try ServerConfiguration.load(file: try write("{\(base)}"), environment: [:], dataDirectory: directory)
        #expect(defaults.httpTimeouts == HTTPTimeouts(idle: .seconds(60), header: .seconds(10), body: .seconds(30)))
        #expect(defaults.signUpLimit == 10)
        #expect(defaults.passwordHashConcurrency == nil)
        let configured = try ServerConfiguration.load(
            file: try write(#"{\#(base), "idle_timeout": 30, "header_timeout": 5, "sign_up_limit": 3}"#),
            environment: ["JUICE_BODY_TIMEOUT": "20", "JUICE_PASSWORD_HASH_CONCURRENCY": "2"], dataDirectory: directory)
        #expect(configured.httpTimeouts == HTTPTimeouts(idle: .seconds(30), header: .seconds(5), body: .seconds(20)))
        #expect(configured.signUpLimit == 3)
        #expect(configured.passwordHashConcurrency == 2)
        for (extra, field) in [
            (#", "idle_timeout": 0"#, "idle_timeout"), (#", "header_timeout": 3601"#, "header_timeout"),
            (#", "body_timeout": "soon""#, "body_timeout"),
            (#", "sign_up_limit": -1"#, "sign_up_limit"), (#", "password_hash_concurrency": 1e22"#, "password_hash_concurrency"),
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
