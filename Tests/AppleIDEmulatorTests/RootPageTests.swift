import Foundation
import JuiceTestSupport
import Testing

/// `GET /`: the emulator's home page, which the readiness banner links to.
@Suite("The emulator's root page")
struct RootPageTests {
    @Test("/ says what the emulator is, lists its endpoints and links the portal and the inbox, in English and Simplified Chinese")
    func rootPage() async throws {
        try await RunningEmulator.with { emulator in
            let english = try await emulator.http.get("/")
            #expect(english.status == 200)
            #expect(english[header: "Content-Type"]?.hasPrefix("text/html") == true)
            #expect(english.body.contains("<h1>Apple ID Emulator</h1>"))
            #expect(english.body.contains(#"<a href="/account" id="portal-link">"#))
            #expect(english.body.contains(#"<a href="/account#mail-heading" id="inbox-link">"#))
            for path in ["/auth/authorize", "/auth/token", "/auth/keys", "/auth/revoke", "/auth/usermigrationinfo", "/emulator/device/authorize"] {
                #expect(english.body.contains(path), "\(path) missing")
            }
            #expect(english.body.contains(#"<code id="issuer">\#(emulator.issuer)</code>"#))
            #expect(english.body.contains(#"<code id="relay-domain">private.icloud.com</code>"#))
            let chinese = try await emulator.http.get("/", headers: [("Accept-Language", "zh-CN,zh;q=0.9")])
            #expect(chinese.body.contains("<h1>Apple ID 模拟器</h1>"))
            #expect(chinese[header: "Content-Language"] == "zh-Hans")
            // Only `/` itself: other unknown paths stay 404.
            #expect(try await emulator.http.get("/no-such-page").status == 404)
        }
    }
}
