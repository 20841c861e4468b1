import AppleIDEmulator
import Foundation
import JuiceEncodings
import JuiceTestSupport
import Testing

/// The emulator's Apple ID names follow the stored-text rule (`StoredTextRule`, issue 40): from the
/// configuration, a seed, the device sign-in and the consent page, a control character is refused and
/// lengths count Unicode scalars, not grapheme clusters.
@Suite("Emulator names: control characters refused, lengths in Unicode scalars")
struct EmulatorStoredTextTests {
    static let combiningFlood = String(repeating: "a" + String(repeating: "\u{0301}", count: 2000), count: 5)

    @Test("configuration: a NUL, a line break or a combining-mark flood in an Apple ID's name is a problem of that field")
    func configuration() throws {
        var configuration = Fixture.configuration()
        configuration.appleIDs = [
            .init(email: "nul@example.org", password: "p", firstName: "ab\u{0}cd", lastName: "ok"),
            .init(email: "line@example.org", password: "p", firstName: "ok", lastName: "two\nlines"),
            .init(email: "flood@example.org", password: "p", firstName: Self.combiningFlood, lastName: "ok"),
            .init(email: "fine@example.org", password: "p", firstName: String(repeating: "😀", count: 64), lastName: "Zoë"),
            .init(email: "work@example.org", password: "p", firstName: "ok", lastName: "ok", managed: .init(organization: "Acme\t")),
        ]
        do {
            try configuration.validate()
            Issue.record("names with control characters were accepted")
        } catch {
            let problems = Dictionary(error.problems.map { ($0.field, $0.message) }, uniquingKeysWith: { first, _ in first })
            #expect(problems["apple_ids[0].first_name"]?.contains("control characters") == true, "\(problems)")
            #expect(problems["apple_ids[1].last_name"]?.contains("control characters") == true)
            #expect(problems["apple_ids[2].first_name"]?.contains("at most 64 characters") == true)
            #expect(problems.keys.allSatisfy { !$0.hasPrefix("apple_ids[3]") }, "64 scalars, 256 bytes fit: \(problems)")
            #expect(problems["apple_ids[4].managed.organization"]?.contains("control characters") == true, "a trailing tab is not trimmed away")
        }
    }

    @Test("a seed with a NUL in a name is refused, and nothing changes; the device sign-in refuses such a name with invalid_request")
    func seedAndDevice() async throws {
        try await RunningEmulator.with { emulator in
            let seeded = try await emulator.admin.postJSON(
                "/emulator/admin/seed", ["apple_ids": [["email": "tess@example.net", "password": "pw", "first_name": "Te\u{0}ss", "last_name": ""]]])
            #expect(seeded.status == 400, "\(seeded.body)")
            #expect(seeded.body.contains("apple_ids[0].first_name"), "\(seeded.body)")
            for name in ["Jo\u{0}hn", "tab\there", Self.combiningFlood] {
                let device = try await DeviceSignInTests.authorize(emulator, [("first_name", name)])
                #expect(device.status == 400 && device.json?["error"] as? String == "invalid_request", "\(device.body.prefix(200))")
            }
            #expect(try await DeviceSignInTests.authorize(emulator, [("first_name", "Zoë")]).status == 200)
        }
    }

    @Test("the consent page: a NUL or a combining-mark flood in a name shows the page again with the reason; no answer goes to the app")
    func consentPage() async throws {
        try await RunningEmulator.with { emulator in
            let signIn = try await emulator.http.postForm(
                "/auth/authorize", WebFlow.parameters() + [("account_name", Fixture.alice.email), ("password", Fixture.alice.password)]
            )
            let session = try #require(WebFlow.hiddenInputs(signIn.body)["session"])
            // Five characters, 505 Unicode scalars (the form's 8 KiB field limit refuses the 20 KB flood before the rule).
            let flood = String(repeating: "a" + String(repeating: "\u{0301}", count: 100), count: 5)
            let refusals = [("Al\u{0}ly", "Names cannot contain control characters"), (flood, "Names can be at most 64 characters")]
            for (name, reason) in refusals {
                let consent = try await emulator.http.postForm(
                    "/auth/authorize",
                    WebFlow.parameters() + [
                        ("session", session), ("first_name", name), ("last_name", "Seed"), ("email_choice", "hide"), ("action", "continue"),
                    ]
                )
                #expect(consent.status == 200 && consent.body.contains(reason), "\(consent.status)")
                #expect(WebFlow.formAction(consent.body) != Fixture.redirectURI, "the name went to the app")
            }
        }
    }
}
