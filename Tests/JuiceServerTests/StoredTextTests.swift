import Foundation
import JuiceEncodings
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import JuiceServer

/// Stored free text follows one rule (`StoredTextRule`): control characters refused (a NUL cut names on
/// SQLite and failed on PostgreSQL), lengths in Unicode scalars and bytes rather than grapheme clusters;
/// Apple's own names are kept, cleaned (issue 40, findings 3 and 4). Each test runs on SQLite and on
/// PostgreSQL.
@Suite("Stored text: NUL and control characters refused, lengths in Unicode scalars and bytes")
struct StoredTextTests {
    /// `"a"` + 2000 × U+0301, five times: five characters, 10,005 Unicode scalars.
    static let combiningFlood = String(repeating: "a" + String(repeating: "\u{0301}", count: 2000), count: 5)

    @Test(
        "PATCH /api/passkeys/{id}: a NUL, a tab or DEL is 400 invalid_text; a combining-mark flood and 65 scalars are 400 text_too_long; 64 are kept whole",
        arguments: TestDatabase.all)
    func renameRefusals(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let token = try await PasskeyAPITests.signUp(stack, "text-owner")
            let authenticator = try await PasskeyAPITests.register(stack, token: token)
            let id = Base64URL.encode(authenticator.credentialID)
            for name in ["\u{0}abc", "ab\u{0}cd", "tab\there", "del\u{7F}", "c1\u{85}"] {
                let answer = try await APIRequests.json(stack, "PATCH", "/api/passkeys/\(id)", ["name": name], bearer: token)
                #expect(answer.status == 400 && answer.error == "invalid_text", "\(name.unicodeScalars.map(\.value)): \(answer.body)")
            }
            for name in [
                Self.combiningFlood, String(repeating: "x", count: 65), String(repeating: "é", count: 65), String(repeating: "😀", count: 65),
            ] {
                let answer = try await APIRequests.json(stack, "PATCH", "/api/passkeys/\(id)", ["name": name], bearer: token)
                #expect(answer.status == 400 && answer.error == "text_too_long", "\(name.unicodeScalars.count) scalars: \(answer.body.prefix(200))")
            }
            let longest = String(repeating: "😀", count: 64)  // 64 scalars, 256 bytes
            let kept = try await APIRequests.json(stack, "PATCH", "/api/passkeys/\(id)", ["name": longest], bearer: token)
            #expect(kept.status == 200 && kept.json?["name"] as? String == longest)
            let list = try await APIRequests.json(stack, "GET", "/api/passkeys", bearer: token)
            #expect((list.json?["passkeys"] as? [[String: Any]])?.first?["name"] as? String == longest, "read back whole")
        }
    }

    @Test(
        "registration: a name with a NUL is 400 invalid_text before the challenge is spent; a long name is cut at 64 Unicode scalars",
        arguments: TestDatabase.all)
    func registrationNames(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let token = try await PasskeyAPITests.signUp(stack, "text-registrar")
            let begin = try await APIRequests.json(stack, "POST", "/api/passkeys/registration/options", bearer: token)
            var authenticator = TestAuthenticator(rpID: PasskeyAPITests.rpID(stack))
            let options = try PasskeyAPITests.options(begin)
            let refused = try await APIRequests.json(
                stack, "POST", "/api/passkeys/registration", authenticator.register(options, origin: stack.serverURL, name: "ab\u{0}cd"),
                bearer: token)
            #expect(refused.status == 400 && refused.error == "invalid_text", "\(refused.body)")
            let retried = try await APIRequests.json(
                stack, "POST", "/api/passkeys/registration", authenticator.register(options, origin: stack.serverURL, name: Self.combiningFlood),
                bearer: token)
            #expect(retried.status == 201, "the challenge was not spent by the refusal: \(retried.body)")
            let name = try #require(retried.json?["name"] as? String)
            #expect(name.unicodeScalars.count == 64 && name.unicodeScalars.first == "a")
        }
    }

    @Test(
        "Apple's names (fullName of a native sign-in) are kept without their control characters, cut at 64 Unicode scalars",
        arguments: TestDatabase.all)
    func appleNamesAreCleaned(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let nonce = try await NativeFlow.nonce(stack)
            let credential = try await NativeFlow.deviceCredential(stack, nonce: nonce)
            var body = NativeFlow.body(credential, nonce: nonce)
            body["fullName"] = ["givenName": "Jo\u{0}hn\nny", "familyName": Self.combiningFlood]
            let answer = try await NativeFlow.post(stack, body)
            #expect(answer.status == 200, "\(answer.body)")
            let token = try #require(answer.json?["token"] as? String)
            let me = try await AppleFlow.me(stack, token: token)
            let name = try #require(me.json?["name"] as? [String: Any])
            #expect(name["givenName"] as? String == "Johnny")
            #expect((name["familyName"] as? String)?.unicodeScalars.count == 64)
        }
    }
}
