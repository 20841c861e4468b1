import AppleSignIn
import Foundation
import JuiceTestSupport
import Testing

@testable import AppleIDEmulator

@Suite("Apple ID portal (/account)")
struct AccountPortalTests {
    static func signIn(
        _ emulator: RunningEmulator, account: EmulatorConfiguration.AppleID = Fixture.alice
    ) async throws -> (cookie: String, page: HTTPResult) {
        let result = try await emulator.http.postForm("/account/sign-in", [("account_name", account.email), ("password", account.password)])
        #expect(result.status == 303)
        let setCookie = try #require(result[header: "Set-Cookie"])
        #expect(setCookie.contains("HttpOnly"))
        #expect(setCookie.contains("SameSite=Strict"))
        let cookie = String(setCookie.split(separator: ";")[0])
        let page = try await emulator.http.get("/account", headers: [("Cookie", cookie)])
        return (cookie, page)
    }

    @Test("Lists apps and relay addresses; forwarding, Stop Using Apple ID and deletion work and notify")
    func portal() async throws {
        try await NotificationReceiver.with { receiver, url in
            try await RunningEmulator.with(configuration: Fixture.configuration(notificationURL: url)) { emulator in
                let signInPage = try await emulator.http.get("/account")
                #expect(signInPage.body.contains(#"action="/account/sign-in""#))
                let wrong = try await emulator.http.postForm("/account/sign-in", [("account_name", Fixture.alice.email), ("password", "nope")])
                #expect(wrong.status == 401)
                #expect(wrong[header: "Set-Cookie"] == nil)

                let idToken = WebFlow.hiddenInputs(try await WebFlow.signIn(emulator, emailChoice: "hide").body)["id_token"]!
                let relay = try #require(try await emulator.verifier().verify(idToken).email)
                let (cookie, page) = try await Self.signIn(emulator)
                #expect(page.status == 200)
                #expect(page.body.contains(Fixture.bundleID))
                #expect(page.body.contains(relay))
                let csrf = try #require(WebFlow.hiddenInputs(page.body)["csrf"])

                // A forged form (no CSRF token) changes nothing.
                let forged = try await emulator.http.postForm(
                    "/account/forwarding", [("team_id", Fixture.teamA.teamID), ("enabled", "false")], headers: [("Cookie", cookie)])
                #expect(forged.status == 403)
                #expect(await receiver.count == 0)

                let off = try await emulator.http.postForm(
                    "/account/forwarding", [("csrf", csrf), ("team_id", Fixture.teamA.teamID), ("enabled", "false")], headers: [("Cookie", cookie)]
                )
                #expect(off.status == 303)
                try await eventually("email-disabled delivered") { await receiver.count == 1 }
                let afterOff = try await emulator.http.get("/account", headers: [("Cookie", cookie)])
                #expect(afterOff.body.contains("Forwarding is off"))
                #expect(afterOff.body.contains("email-disabled"))

                let stop = try await emulator.http.postForm(
                    "/account/stop-using", [("csrf", csrf), ("bundle_id", Fixture.bundleID)], headers: [("Cookie", cookie)])
                #expect(stop.status == 303)
                try await eventually("consent-revoked delivered") { await receiver.count == 2 }
                let afterStop = try await emulator.http.get("/account", headers: [("Cookie", cookie)])
                #expect(afterStop.body.contains("No apps use Sign in with Apple"))
                #expect(WebFlow.hiddenInputs(try await WebFlow.signIn(emulator).body)["user"] != nil)

                let unconfirmed = try await emulator.http.postForm("/account/delete", [("csrf", csrf)], headers: [("Cookie", cookie)])
                #expect(unconfirmed.status == 400)
                let delete = try await emulator.http.postForm("/account/delete", [("csrf", csrf), ("confirm", "yes")], headers: [("Cookie", cookie)])
                #expect(delete.status == 303)
                #expect(delete[header: "Set-Cookie"]?.contains("Max-Age=0") == true)
                try await eventually("account-delete delivered") { await receiver.count == 3 }
                let gone = try await emulator.http.get("/account", headers: [("Cookie", cookie)])
                #expect(gone.body.contains(#"action="/account/sign-in""#))
                #expect(
                    try await emulator.http.postForm(
                        "/account/sign-in", [("account_name", Fixture.alice.email), ("password", Fixture.alice.password)]
                    )
                    .status == 401)
            }
        }
    }

    @Test("The portal speaks Simplified Chinese when asked")
    func chinese() async throws {
        try await RunningEmulator.with { emulator in
            let page = try await emulator.http.get("/account", headers: [("Accept-Language", "zh-Hans")])
            #expect(page.body.contains("登录以管理你的 Apple ID"))
        }
    }
}
