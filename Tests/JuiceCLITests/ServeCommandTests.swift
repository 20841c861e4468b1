import Foundation
import JuiceTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("juice serve")
struct ServeCommandTests {
    @Test(
        "with no configuration: development mode with the emulator, generated 0600 keys, URLs and demo login printed only once the app, the emulator and the relay all accept connections"
    )
    func developmentMode() async throws {
        let serve = try ServeProcess()
        defer { serve.stop() }
        try await serve.start()
        let output = serve.output
        #expect(output.contains(serve.url))
        #expect(output.contains(serve.emulatorURL))
        #expect(output.contains("appleseed@juice.test / juice"))
        #expect(output.contains("Johnny Appleseed"))
        #expect(output.contains("smtp://127.0.0.1:\(serve.smtpPort)"))
        for file in ["team-key.p8", "refresh-token.key", "juice.sqlite"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: serve.dataDirectory.appendingPathComponent(file).path)
            #expect(attributes[.posixPermissions] as? Int == 0o600, "\(file) is owner-only")
        }
        let (body, response) = try await URLSession.shared.data(from: try #require(URL(string: serve.url + "/")))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("Sign in with Apple"))
        let (keys, _) = try await URLSession.shared.data(from: try #require(URL(string: serve.emulatorURL + "/auth/keys")))
        #expect(String(decoding: keys, as: UTF8.self).contains("\"kty\""))
        let relay = LoopbackSocket.connected(toPort: serve.smtpPort, receiveTimeout: 10)
        #expect(relay != nil, "the relay accepts connections once the banner is out")
        if let relay { close(relay) }
        serve.terminate()
        #expect(try await serve.waitForExit(seconds: 30))
        #expect(!serve.output.contains("BEGIN PRIVATE KEY"))
    }

    @Test("a bad configuration stops start-up with every problem named, exit status 1")
    func badConfiguration() async throws {
        let result = try await TemporaryDirectory.with("serve") { temporary in
            let file = temporary.file("juice.json")
            try #"{"client_id": "com.example.web", "team_id": "short", "public_url": "http://juice.example.com"}"#.write(
                to: file, atomically: true, encoding: .utf8)
            return try await JuiceProcess.run(["serve", "--config", file.path])
        }
        #expect(result.status == 1)
        #expect(result.stderr.contains("team_id"))
        #expect(result.stderr.contains("public_url"))
        #expect(result.stderr.contains("refresh_token_key"))
        #expect(result.stderr.contains("key_id"))
    }
}
