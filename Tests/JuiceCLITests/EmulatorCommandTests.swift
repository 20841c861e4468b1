import Foundation
import JuiceProcesses
import JuiceTestSupport
import Testing

@Suite("juice emulator: new-key and a real emulator process")
final class EmulatorCommandTests {
    let temporary: TemporaryDirectory

    init() throws { temporary = try TemporaryDirectory("emulator-cli") }
    deinit { temporary.remove() }

    /// Runs `new-key` and returns the key id and public PEM it printed.
    func newKey(_ file: URL) async throws -> (keyID: String, publicPEM: String) {
        let result = try await JuiceProcess.run(["emulator", "new-key", "--team-id", "ABCDE12345", "--out", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        let keyID = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("Key ID:") }).split(separator: " ").last.map(String.init)
        let json = String(result.stdout[try #require(result.stdout.firstIndex(of: "{"))...])
        let entry = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String])
        #expect(entry["key_id"] == keyID)
        return (try #require(keyID), try #require(entry["public_key_pem"]))
    }

    @Test("new-key writes a 0600 PKCS#8 key, prints its id and public PEM, and never overwrites")
    func newKeyFile() async throws {
        let file = temporary.file("AuthKey.p8")
        let (keyID, publicPEM) = try await newKey(file)
        #expect(keyID.count == 10)
        #expect(publicPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let again = try await JuiceProcess.run(["emulator", "new-key", "--team-id", "ABCDE12345", "--out", file.path])
        #expect(again.status != 0)
        #expect(!again.stderr.isEmpty)
        let badTeam = try await JuiceProcess.run(["emulator", "new-key", "--team-id", "abc", "--out", temporary.file("x.p8").path])
        #expect(badTeam.status != 0)
    }

    @Test("a bad configuration stops start-up with every problem listed")
    func badConfiguration() async throws {
        let config = temporary.file("emulator.json")
        try #"{"teams": [{"team_id": "bad"}], "apps": [], "apple_ids": [], "surprise": 1}"#.write(to: config, atomically: true, encoding: .utf8)
        let result = try await JuiceProcess.run([
            "emulator", "--port", "0", "--config", config.path, "--data-dir", temporary.file("data").path,
        ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("team_id"))
        #expect(result.stderr.contains("surprise"))
    }

    @Test("an invalid seed file or relay domain stops start-up with a clear message")
    func badSeedAndRelayDomain() async throws {
        let config = temporary.file("emulator.json")
        try #"{"teams": [], "apps": [], "apple_ids": []}"#.write(to: config, atomically: true, encoding: .utf8)
        let seed = temporary.file("seed.json")
        try #"{"admin_token": "x", "apps": [{"team_id": "NOSUCHTEAM", "bundle_id": "com.x"}]}"#.write(to: seed, atomically: true, encoding: .utf8)
        let base = ["emulator", "--port", "0", "--config", config.path, "--data-dir", temporary.file("data").path]
        let badSeed = try await JuiceProcess.run(base + ["--seed", seed.path])
        #expect(badSeed.status != 0)
        #expect(badSeed.stderr.contains("admin_token"), "\(badSeed.stderr)")
        let missing = try await JuiceProcess.run(base + ["--seed", temporary.file("nope.json").path])
        #expect(missing.status != 0 && missing.stderr.contains("cannot read the seed file"), "\(missing.stderr)")
        let domain = try await JuiceProcess.run(base + ["--relay-domain", "evil.example"])
        #expect(domain.status != 0 && domain.stderr.contains("private.icloud.com"), "\(domain.stderr)")
    }

    @Test("the emulator serves discovery, keys and Apple's errors over HTTP, with the issuer asked for, and stops on SIGTERM")
    func runsAndStops() async throws {
        let keyFile = temporary.file("AuthKey.p8")
        let (keyID, publicPEM) = try await newKey(keyFile)
        let config: [String: Any] = [
            "teams": [["team_id": "ABCDE12345", "keys": [["key_id": keyID, "public_key_pem": publicPEM]]]],
            "apps": [
                [
                    "team_id": "ABCDE12345", "bundle_id": "com.example.cli", "services_ids": ["com.example.cli.web"],
                    "redirect_uris": ["https://cli.example.com/callback"], "email_sources": [], "allow_local_redirects": false,
                ]
            ],
            "apple_ids": [["email": "alice@example.org", "password": "correct horse", "first_name": "Alice", "last_name": "Appleseed"]],
        ]
        let configFile = temporary.file("emulator.json")
        try JSONSerialization.data(withJSONObject: config).write(to: configFile)
        let seedFile = temporary.file("seed.json")
        try #"{"apple_ids": [{"email": "seeded@example.org", "password": "seeded password"}]}"#.write(to: seedFile, atomically: true, encoding: .utf8)
        let port = try FreePort.pick()
        let smtpPort = try FreePort.pick()
        let log = temporary.file("stdout.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = try SpawnedChild.start(
            JuiceProcess.executable.path,
            [
                "emulator", "--port", "\(port)", "--config", configFile.path, "--data-dir", temporary.file("data").path, "--issuer",
                "https://appleid.apple.com", "--smtp-port", "\(smtpPort)", "--smtp-idle-timeout", "5",
                "--seed", seedFile.path, "--ready-json",
            ], standardIO: .file(log.path))
        defer { process.stopBlocking() }
        let ready = try await ReadyLine.wait(for: process, log: log)

        let base = "http://127.0.0.1:\(port)"
        #expect(ready["url"] as? String == base)
        let http = TestHTTP(baseURL: base, timeout: .seconds(60))
        let document = try #require(try await http.get("/.well-known/openid-configuration").json, "no discovery document")
        #expect(document["issuer"] as? String == "https://appleid.apple.com")
        #expect(document["jwks_uri"] as? String == base + "/auth/keys")

        let jwks = try await http.get("/auth/keys").json
        #expect(((jwks?["keys"] as? [Any])?.count ?? 0) >= 2)

        let refused = try await http.postForm(
            "/auth/token",
            [("client_id", "com.example.cli"), ("client_secret", "forged"), ("grant_type", "client_credentials"), ("scope", "user.migration")])
        #expect(refused.status == 400)
        #expect(refused.error == "invalid_client")

        // The Apple ID of --seed signs in.
        let seeded = try await http.postForm(
            "/auth/authorize",
            [
                ("client_id", "com.example.cli.web"), ("redirect_uri", "https://cli.example.com/callback"), ("response_type", "code"),
                ("response_mode", "form_post"), ("state", "s"), ("account_name", "seeded@example.org"), ("password", "seeded password"),
                ("action", "continue"),
            ])
        #expect(seeded.status == 200)
        #expect(seeded.body.contains(#"name="code""#), "a code for the seeded Apple ID")

        // The private email relay answers SMTP on --smtp-port.
        let greeting = try await SpawnedChild.python(
            ["-c", "import socket; s = socket.create_connection(('127.0.0.1', \(smtpPort)), 5); s.settimeout(5); print(s.recv(200).decode())"],
            deadline: .seconds(30))
        #expect(greeting.outputText.hasPrefix("220 "), "\(greeting.errorText)")

        process.send(SIGTERM)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        try #require(!process.isRunning, "the emulator did not stop within 10 s of SIGTERM")
        #expect(process.exit == .exited(0))
    }
}
