import Foundation
import JuiceEncodings
import JuiceStackSupport
import JuiceTestSupport
import SQLKit
import Testing

@testable import JuiceServer

/// Provider names by AAGUID: the vendored list, the stored AAGUID, and where the name is shown.
@Suite("Passkey provider names: AAGUID → name from the vendored list, in the API and on the account page; unknown or zero is Passkey")
struct PasskeyProviderTests {
    /// Apple Passwords' AAGUID in the list.
    static let applePasswords: [UInt8] = [0xfb, 0xfc, 0x30, 0x07, 0x15, 0x4e, 0x4e, 0xcc, 0x8c, 0x0b, 0x6e, 0x02, 0x05, 0x57, 0xd7, 0xbd]

    @Test("the bundled list names known AAGUIDs; zero, unknown, missing or malformed ones are Passkey; bad lines are left out")
    func list() {
        let providers = PasskeyProviders.bundled
        #expect(providers.count > 300, "the vendored list was read")
        #expect(providers.name(aaguid: Self.applePasswords) == "Apple Passwords")
        #expect(PasskeyProviders.text(Self.applePasswords) == "fbfc3007-154e-4ecc-8c0b-6e020557d7bd")
        #expect(PasskeyProviders.bytes("fbfc3007-154e-4ecc-8c0b-6e020557d7bd") == Self.applePasswords)
        #expect(providers.name(aaguid: [UInt8](repeating: 0, count: 16)) == "Passkey")
        #expect(providers.name(aaguid: [UInt8](repeating: 0xAB, count: 16)) == "Passkey")
        #expect(providers.name(aaguid: nil) == "Passkey")
        #expect(providers.name(aaguid: [1, 2, 3]) == "Passkey")
        for bad in ["FBFC3007-154E-4ECC-8C0B-6E020557D7BD", "fbfc3007154e4ecc8c0b6e020557d7bd", "fbfc3007-154e-4ecc-8c0b-6e020557d7bg", ""] {
            #expect(PasskeyProviders.bytes(bad) == nil, "\(bad)")
        }
        let hostile = PasskeyProviders(
            tsv: Array(
                """
                fbfc3007-154e-4ecc-8c0b-6e020557d7bd\tGood
                not-an-aaguid\tBad
                00000000-0000-0000-0000-00000000000a\tRing\u{7}bell
                00000000-0000-0000-0000-00000000000b\t
                00000000-0000-0000-0000-00000000000c\t\(String(repeating: "x", count: 101))
                """.utf8))
        #expect(hostile.count == 1, "only the good line is kept")
    }

    @Test("a registration keeps its AAGUID: the API, the account page and the database name the provider", arguments: TestDatabase.all)
    func shown(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let browser = Browser()
            _ = try await PasswordAccountTests.signUp(stack, browser, username: "provider-fan", password: PasskeyWebTests.password)
            for aaguid in [Self.applePasswords, [UInt8](repeating: 0, count: 16)] {
                let begin = try await PasskeyWebTests.postJSON(stack, browser, "/api/passkeys/registration/options", [:], origin: stack.serverURL)
                var authenticator = TestAuthenticator(rpID: PasskeyAPITests.rpID(stack))
                let body = authenticator.register(try PasskeyAPITests.options(begin), origin: stack.serverURL, aaguid: aaguid)
                let finish = try await PasskeyWebTests.postJSON(stack, browser, "/api/passkeys/registration", body, origin: stack.serverURL)
                #expect(finish.status == 201, "\(finish.body)")
                let named = aaguid == Self.applePasswords
                #expect(finish.json?["provider"] as? String == (named ? "Apple Passwords" : "Passkey"))
                #expect(finish.json?["aaguid"] as? String == PasskeyProviders.text(aaguid))
            }
            let list = try await browser.get(stack.serverURL + "/api/passkeys")
            let providers = (list.json?["passkeys"] as? [[String: Any]])?.compactMap { $0["provider"] as? String }
            #expect(providers.map(Set.init) == ["Apple Passwords", "Passkey"])
            let page = try await browser.get(stack.serverURL + "/account")
            #expect(page.body.contains(#"<span class="passkey-provider muted">Apple Passwords</span>"#), "\(page.body)")
            #expect(page.body.contains(#"<span class="passkey-provider muted">Passkey</span>"#))

            // A passkey stored before AAGUIDs were kept (NULL) is "Passkey".
            try await stack.withDatabase { database in
                try await database.autocommit { sql in try await sql.raw("UPDATE passkey_credentials SET aaguid = NULL").run() }
            }
            let old = try await browser.get(stack.serverURL + "/api/passkeys")
            let oldProviders = (old.json?["passkeys"] as? [[String: Any]])?.compactMap { $0["provider"] as? String }
            #expect(oldProviders == ["Passkey", "Passkey"])
        }
    }
}
