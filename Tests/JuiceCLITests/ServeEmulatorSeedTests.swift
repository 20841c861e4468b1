import Foundation
import JuiceTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("juice serve --emulator-seed: Apple IDs of one's own in the embedded emulator, Work & School accounts among them")
struct ServeEmulatorSeedTests {
    @Test("a seeded Work & School account is named in the banner and signs in to the app's bundle id at the emulator")
    func workAndSchool() async throws {
        try await TemporaryDirectory.with("serve-seed") { temporary in
            let seed = temporary.file("seed.json")
            try #"""
            {"apple_ids": [{"email": "pupil@school.example", "password": "pupil-password", "first_name": "Pat", "last_name": "Pupil",
                            "managed": {"organization": "Juice School"}}]}
            """#.write(to: seed, atomically: true, encoding: .utf8)
            let serve = try ServeProcess()
            serve.extraArguments = ["--emulator-seed", seed.path]
            defer { serve.stop() }
            try await serve.start()
            #expect(serve.output.contains("Seeded:         pupil@school.example (Work & School: Juice School)"))
            #expect(serve.output.contains("appleseed@juice.test / juice"), "the demo Apple ID is still there")

            var request = URLRequest(url: try #require(URL(string: serve.emulatorURL + "/emulator/device/authorize")))
            request.httpMethod = "POST"
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(
                "client_id=com.example.apple-samplecode.juice&account_name=pupil%40school.example&password=pupil-password&scope=name%20email"
                    .utf8)
            let (body, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: body, as: UTF8.self))")
            let credential = try JSONSerialization.jsonObject(with: body) as? [String: Any]
            #expect(credential?["identityToken"] is String)
        }
    }

    @Test("a seed file that is missing or invalid stops start-up with the file and the problem named, exit 1")
    func badSeed() async throws {
        try await TemporaryDirectory.with("serve-seed") { temporary in
            let missing = try await JuiceProcess.run(
                ["serve", "--data-dir", temporary.file("data").path, "--port", "0", "--emulator-seed", temporary.file("nope.json").path])
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("cannot read the seed file"))
            let invalid = temporary.file("invalid.json")
            try #"{"apple_ids": [{"email": "not-an-email", "password": ""}], "admin_token": "x"}"#.write(
                to: invalid, atomically: true, encoding: .utf8)
            let refused = try await JuiceProcess.run(
                ["serve", "--data-dir", temporary.file("data2").path, "--port", "0", "--emulator-seed", invalid.path])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains(invalid.path) && refused.stderr.contains("admin_token"), "\(refused.stderr)")
        }
    }
}
