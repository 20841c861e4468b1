import Foundation
import JuiceTestSupport
import Testing

@Suite("juice verify-token: the contract scripts depend on")
struct VerifyTokenCommandTests {
    static let examples = JuiceProcess.packageRoot.appendingPathComponent("Examples")
    static let nonce = "2f1c9e7a5b3d4f6081a2c3e4d5f60718293a4b5c6d7e8f901a2b3c4d5e6f7081"

    var token: String {
        (try? String(contentsOf: Self.examples.appendingPathComponent("identity-token.jwt"), encoding: .utf8))!.trimmingCharacters(
            in: .whitespacesAndNewlines)
    }
    var code: String {
        (try? String(contentsOf: Self.examples.appendingPathComponent("authorization-code.txt"), encoding: .utf8))!.trimmingCharacters(
            in: .whitespacesAndNewlines)
    }
    var jwks: String { Self.examples.appendingPathComponent("apple-keys.json").path }

    func json(_ text: String) throws -> [String: Any] {
        let lines = text.split(separator: "\n")
        #expect(lines.count == 1, "one JSON object on one line")
        return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("a valid token prints its claims with booleans normalized and exits 0")
    func success() async throws {
        let result = try await JuiceProcess.run([
            "verify-token", token, "--jwks", jwks, "--audience", "com.example.other", "--audience", "com.example.apple-samplecode.juice", "--nonce",
            Self.nonce, "--code", code, "--now", "1790000100",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let claims = try json(result.stdout)
        #expect(claims["sub"] as? String == "001872.a22fc8cc2d0a4d0bacaf109007e19351.0650")
        #expect(claims["email_verified"] as? Bool == true)
        #expect(claims["is_private_email"] as? Bool == true)
        #expect(claims["real_user_status"] as? Int == 2)
    }

    @Test("the token can come from standard input")
    func stdin() async throws {
        let result = try await JuiceProcess.run(
            ["verify-token", "-", "--jwks", jwks, "--audience", "com.example.apple-samplecode.juice", "--now", "1790000100"], stdin: token + "\n")
        #expect(result.status == 0, "\(result.stdout)")
    }

    @Test(
        "each refusal exits 1 with its error code",
        arguments: [
            (["--audience", "com.example.other"], "wrong_audience"),
            (["--audience", "com.example.apple-samplecode.juice", "--now", "1800000000"], "expired"),
            (["--audience", "com.example.apple-samplecode.juice", "--now", "1780000000"], "not_yet_valid"),
            (["--audience", "com.example.apple-samplecode.juice", "--nonce", "x"], "nonce_mismatch"),
            (["--audience", "com.example.apple-samplecode.juice", "--code", "x"], "code_hash_mismatch"),
            (["--audience", "com.example.apple-samplecode.juice", "--issuer", "http://127.0.0.1:8081"], "wrong_issuer"),
        ])
    func refusals(arguments: [String], code: String) async throws {
        var arguments = arguments
        if !arguments.contains("--now") { arguments += ["--now", "1790000100"] }
        let result = try await JuiceProcess.run(["verify-token", token, "--jwks", jwks] + arguments)
        #expect(result.status == 1)
        let body = try json(result.stdout)
        #expect(body["error"] as? String == code)
        #expect((body["reason"] as? String)?.isEmpty == false)
    }

    @Test("a refusal that quotes a direction override or a C1 CSI prints them as JSON escapes, never raw")
    func terminalSafeRefusal() async throws {
        let hostile = "http://evil\u{202E}txt\u{9B}2J"
        let result = try await JuiceProcess.run([
            "verify-token", token, "--jwks", jwks, "--audience", "com.example.apple-samplecode.juice", "--issuer", hostile, "--now", "1790000100",
        ])
        #expect(result.status == 1)
        #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x9B })
        #expect(result.stdout.contains(#"\u202E"#) && result.stdout.contains(#"\u009B"#))
        let body = try json(result.stdout)
        #expect(body["error"] as? String == "wrong_issuer")
        #expect((body["reason"] as? String)?.contains(hostile) == true, "the JSON still says exactly what was refused")
    }

    @Test(
        "garbage never crashes: it is malformed, exit 1",
        arguments: ["garbage", "a.b.c", "", "....", "eyJ.eyJ.eyJ", String(repeating: "x.", count: 5000), "\u{0}\u{1}"])
    func garbage(input: String) async throws {
        let result = try await JuiceProcess.run(["verify-token", "-", "--jwks", jwks, "--audience", "a"], stdin: input)
        #expect(result.status == 1)
        #expect(try json(result.stdout)["error"] as? String == "malformed")
    }

    @Test("an unreadable key set is reported as JSON, exit 1")
    func badKeys() async throws {
        let result = try await JuiceProcess.run(["verify-token", token, "--jwks", "/nonexistent.json", "--audience", "a"])
        #expect(result.status == 1)
        #expect(try json(result.stdout)["error"] as? String == "keys_unavailable")
        let unreachable = try await JuiceProcess.run(["verify-token", token, "--keys-url", "http://127.0.0.1:9/auth/keys", "--audience", "a"])
        #expect(unreachable.status == 1)
        #expect(try json(unreachable.stdout)["error"] as? String == "keys_unavailable")
    }

    @Test("usage errors (no audience, two key sources, a --now that is no time) name the option and exit non-zero")
    func usage() async throws {
        let noAudience = try await JuiceProcess.run(["verify-token", token, "--jwks", jwks])
        #expect(noAudience.status != 0)
        #expect(noAudience.stderr.contains("--audience"))
        let bothSources = try await JuiceProcess.run(["verify-token", token, "--jwks", jwks, "--keys-url", "http://x", "--audience", "a"])
        #expect(bothSources.status != 0)
        for hostile in ["nan", "inf", "-1", "1e300"] {
            let badTime = try await JuiceProcess.run(["verify-token", token, "--jwks", jwks, "--audience", "a", "--now", hostile])
            #expect(badTime.status != 0 && badTime.stderr.contains("--now"), "--now \(hostile): \(badTime.stderr)")
        }
    }
}
