import Foundation
import JuiceTestSupport
import NIOHTTP1
import Testing

/// `juice signup --passkey`, `juice login` with no method flag, and `juice passkey remove`: the real
/// binary against a real `juice serve`.
@Suite("juice signup --passkey, login with the saved passkey, passkey remove", .timeLimit(.minutes(4)))
struct SignUpCommandTests {
    /// The saved session's token (`sessions.json`).
    static func savedToken(_ client: PasskeyCommandTests.Client) throws -> String {
        let sessions = try Data(contentsOf: client.home.appendingPathComponent("sessions.json"))
        let saved = (PasskeyCommandTests.json(String(decoding: sessions, as: UTF8.self))["sessions"] as? [String: [String: Any]])?.values.first
        return try #require(saved?["token"] as? String)
    }

    @Test("signup --passkey, logout, login (no flag) uses the saved passkey; remove refuses the last way in, then removes it once a password exists")
    func signUpThenLogIn() async throws {
        try await PasskeyCommandTests().withServer { serve, client in
            let signUp = try await client.run(["signup", "--passkey", "--username", "Mango", "--name", "CLI key"])
            #expect(signUp.status == 0, "\(signUp.stderr)")
            #expect(signUp.stdout.contains("Created your account at \(serve.url) with a passkey kept here"), "\(signUp.stdout)")
            #expect(try await client.run(["whoami"]).stdout.contains("username: mango"))

            #expect(try await client.run(["logout"]).status == 0)
            #expect(try await client.run(["whoami"]).status == 1)
            let login = try await client.run(["login"])
            #expect(login.status == 0, "\(login.stderr)")
            #expect(login.stdout.contains("Used the passkey saved here."), "\(login.stdout)")
            #expect(login.stdout.contains("Signed in to \(serve.url) as mango"), "\(login.stdout)")

            let list = try await client.run(["passkey", "list"])
            let line = try #require(list.stdout.split(separator: "\n").first { $0.hasPrefix("* CLI key  ES256") }, "\(list.stdout)")
            let id = try #require(line.components(separatedBy: "  id ").last)
            let last = try await client.run(["passkey", "remove", id])
            #expect(last.status == 1)
            #expect(last.stderr.contains("only way to sign in"), "\(last.stderr)")

            let token = try Self.savedToken(client)
            let password = try await PasskeyCommandTests.call(
                .POST, serve.url + "/api/account/password", ["new_password": "pressed-pear-88"], bearer: token)
            #expect(password.status == 204, "\(password.body)")
            // Adding a password ended every other session; this one stays.
            let removed = try await client.run(["passkey", "remove", id])
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(removed.stdout.contains("Removed the passkey \(id)"), "\(removed.stdout)")
            #expect(try await client.run(["passkey", "list"]).stdout.contains("has no passkey"))
            let passkeys = try String(contentsOf: client.home.appendingPathComponent("passkeys.json"), encoding: .utf8)
            #expect(!passkeys.contains("privateKey"), "the key is gone from this machine too")
            let again = try await client.run(["passkey", "remove", id])
            #expect(again.status == 1 && again.stderr.contains("has no passkey"), "\(again.stderr)")
        }
    }

    @Test("signup: a taken username, no --passkey, a bad --username or id: a clear error, non-zero exit")
    func refusals() async throws {
        try await PasskeyCommandTests().withServer { serve, client in
            let taken = try await PasskeyCommandTests.call(
                .POST, serve.url + "/api/accounts", ["username": "papaya", "password": "fresh-squeezed-42"])
            #expect(taken.status == 201)
            let clash = try await client.run(["signup", "--passkey", "--username", "papaya"])
            #expect(clash.status == 1)
            #expect(clash.stderr.contains("The username papaya is taken"), "\(clash.stderr)")
            let passkeys = client.home.appendingPathComponent("passkeys.json")
            let kept = (try? String(contentsOf: passkeys, encoding: .utf8)) ?? ""
            #expect(!kept.contains("privateKey"), "the refused sign-up's passkey is not kept")
            let bare = try await client.run(["signup"])
            #expect(bare.status == 64 && bare.stderr.contains("needs --passkey"), "\(bare.stderr)")
            let long = try await client.run(["signup", "--passkey", "--username", String(repeating: "u", count: 65)])
            #expect(long.status == 64, "\(long.stderr)")
            let badID = try await client.run(["passkey", "remove", "not base64url!"])
            #expect(badID.status == 64, "\(badID.stderr)")
        }
    }
}
