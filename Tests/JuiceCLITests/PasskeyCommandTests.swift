import Foundation
import JuiceTestSupport
import NIOHTTP1
import Testing

/// `juice passkey add | list` and `juice login --passkey`, the real binary against a real `juice serve`.
@Suite("juice passkey and login --passkey against juice serve", .timeLimit(.minutes(4)))
struct PasskeyCommandTests {
    /// `juice serve`, a password account on it, and a `juice` command line with a home of its own.
    func withServer(_ body: (ServeProcess, Client) async throws -> Void) async throws {
        let serve = try ServeProcess()
        defer { serve.stop() }
        try await serve.start()
        try await TemporaryDirectory.with("passkey-cli") { temp in
            try await body(serve, Client(server: serve.url, home: temp.file("juice-home")))
        }
    }

    /// The `juice` client commands with `--server` and `$JUICE_HOME` set.
    struct Client {
        let server: String
        let home: URL

        func run(_ arguments: [String], stdin: String = "") async throws -> JuiceProcess.Result {
            try await JuiceProcess.run(
                arguments + ["--server", server], stdin: stdin, environment: ["JUICE_HOME": home.path, "HOME": home.path, "PATH": "/usr/bin:/bin"],
                timeout: .seconds(120))
        }

        /// Signs up `username` at the server (`POST /api/accounts`) and signs in with the CLI.
        func signUpAndLogIn(_ username: String) async throws {
            let token = try await PasskeyCommandTests.call(.POST, server + "/api/accounts", ["username": username, "password": "fresh-squeezed-42"])
            #expect(token.status == 201 || token.status == 200, "\(token.body)")
            let login = try await run(["login", "--password", "--username", username], stdin: "fresh-squeezed-42\n")
            #expect(login.status == 0, "\(login.stderr)")
        }
    }

    /// One JSON call; its status and body.
    static func call(
        _ method: HTTPMethod, _ url: String, _ body: [String: String]? = nil, bearer: String? = nil
    ) async throws -> (status: Int, body: String) {
        var headers = bearer.map { [("Authorization", "Bearer \($0)")] } ?? []
        var bytes: [UInt8]?
        if let body {
            headers.append(("Content-Type", "application/json"))
            bytes = Array(try JSONSerialization.data(withJSONObject: body))
        }
        let answer = try await TestHTTP(timeout: .seconds(30)).send(method, url, headers: headers, body: bytes)
        return (answer.status, answer.body)
    }

    static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    @Test("passkey add, logout, login --passkey, whoami; passkey list marks the passkey kept here")
    func addLogoutLogIn() async throws {
        try await withServer { serve, client in
            try await client.signUpAndLogIn("kiwi")
            let add = try await client.run(["passkey", "add", "--name", "Test laptop"])
            #expect(add.status == 0, "\(add.stderr)")
            #expect(add.stdout.contains("Added the passkey \"Test laptop\" (ES256)"), "\(add.stdout)")
            let mode = try FileManager.default.attributesOfItem(atPath: client.home.appendingPathComponent("passkeys.json").path)[.posixPermissions]
            #expect(mode as? Int == 0o600)

            let logout = try await client.run(["logout"])
            #expect(logout.status == 0, "\(logout.stderr)")
            #expect(try await client.run(["whoami"]).status == 1)

            let login = try await client.run(["login", "--passkey"])
            #expect(login.status == 0, "\(login.stderr)")
            #expect(login.stdout.contains("Signed in to \(serve.url) as kiwi"), "\(login.stdout)")
            let whoami = try await client.run(["whoami"])
            #expect(whoami.status == 0, "\(whoami.stderr)")
            #expect(whoami.stdout.contains("username: kiwi"), "\(whoami.stdout)")

            // A second passkey made elsewhere (another home) is listed without the mark.
            let elsewhere = Client(server: serve.url, home: client.home.deletingLastPathComponent().appendingPathComponent("elsewhere"))
            let otherLogin = try await elsewhere.run(["login", "--password", "--username", "kiwi"], stdin: "fresh-squeezed-42\n")
            #expect(otherLogin.status == 0, "\(otherLogin.stderr)")
            #expect(try await elsewhere.run(["passkey", "add", "--name", "Phone"]).status == 0)

            let list = try await client.run(["passkey", "list"])
            #expect(list.status == 0, "\(list.stderr)")
            let lines = list.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.hasPrefix("* Test laptop  ES256  Passkey  added ") && $0.contains("last used ") }, "\(list.stdout)")
            #expect(lines.contains { $0.hasPrefix("  Phone  ES256  Passkey  added ") && $0.contains("never used") }, "\(list.stdout)")
        }
    }

    @Test("login --passkey with no passkey saved, passkey add or list without a session, a bad --name: a clear error, non-zero exit")
    func nothingSaved() async throws {
        try await withServer { _, client in
            let login = try await client.run(["login", "--passkey"])
            #expect(login.status == 1)
            #expect(login.stderr.contains("no passkey of 127.0.0.1 is saved in \(client.home.path)"), "\(login.stderr)")
            for command in [["passkey", "add"], ["passkey", "list"]] {
                let result = try await client.run(command)
                #expect(result.status == 1)
                #expect(result.stderr.contains("Not signed in to \(client.server). Run: juice login"), "\(result.stderr)")
            }
            for name in ["", "   ", String(repeating: "n", count: 65)] {
                let result = try await client.run(["passkey", "add", "--name", name])
                #expect(result.status == 64, "a usage error: \(result.stderr)")
                #expect(result.stderr.contains("--name must have 1 to 64 characters"), "\(result.stderr)")
            }
            let both = try await client.run(["login", "--passkey", "--apple"])
            #expect(both.status != 0)
            #expect(both.stderr.contains("choose one of --apple, --password and --passkey"), "\(both.stderr)")
        }
    }

    @Test("a session the server ended, and a corrupt passkeys.json: a clear error, exit 1, the file left as it was")
    func endedSessionAndCorruptStore() async throws {
        try await withServer { serve, client in
            try await client.signUpAndLogIn("lime")
            let sessions = try Data(contentsOf: client.home.appendingPathComponent("sessions.json"))
            let saved = (Self.json(String(decoding: sessions, as: UTF8.self))["sessions"] as? [String: [String: Any]])?.values.first
            let token = try #require(saved?["token"] as? String)
            #expect(try await Self.call(.POST, serve.url + "/api/signout", bearer: token).status < 300)
            for command in [["passkey", "add"], ["passkey", "list"]] {
                let result = try await client.run(command)
                #expect(result.status == 1)
                #expect(result.stderr.contains("Your session with \(serve.url) has ended. Run: juice login"), "\(result.stderr)")
            }

            let file = client.home.appendingPathComponent("passkeys.json")
            let corrupt = Data(#"{"version": 1, "passkeys": [{"relyingPartyIdentifier": "127.0.0.1"}]}"#.utf8)
            try corrupt.write(to: file)
            let login = try await client.run(["login", "--passkey"])
            #expect(login.status == 1)
            #expect(login.stderr.contains("\(file.path) is not a Juice credential file"), "\(login.stderr)")
            #expect(try Data(contentsOf: file) == corrupt)
        }
    }

    @Test("a passkey removed on the server (DELETE /api/passkeys/{id}) no longer signs in: the server's reason, exit 1")
    func removedOnServer() async throws {
        try await withServer { serve, client in
            try await client.signUpAndLogIn("fig")
            #expect(try await client.run(["passkey", "add"]).status == 0)
            let session = try await Self.call(.POST, serve.url + "/api/auth/password", ["username": "fig", "password": "fresh-squeezed-42"])
            let token = try #require(Self.json(session.body)["token"] as? String)
            let list = try await Self.call(.GET, serve.url + "/api/passkeys", bearer: token)
            let id = try #require((Self.json(list.body)["passkeys"] as? [[String: Any]])?.first?["id"] as? String)
            let removed = try await Self.call(.DELETE, serve.url + "/api/passkeys/\(id)", bearer: token)
            #expect(removed.status == 204, "\(removed.body)")

            #expect(try await client.run(["logout"]).status == 0)
            let login = try await client.run(["login", "--passkey"])
            #expect(login.status == 1)
            #expect(login.stderr.contains("The server refused: no account has this passkey (unknown_credential)"), "\(login.stderr)")
            #expect(try await client.run(["whoami"]).status == 1, "no session was saved")
        }
    }
}
