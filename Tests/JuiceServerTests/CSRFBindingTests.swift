import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import JuiceServer

@Suite("CSRF: tokens bound to the session (or a pre-session cookie) and forms only from the public origin")
struct CSRFBindingTests {
    /// Signs up through the page; returns the browser holding the session.
    static func signedInBrowser(_ stack: JuiceStack, username: String) async throws -> Browser {
        let browser = Browser()
        let signUp = try await PasswordAccountTests.signUp(stack, browser, username: username, password: "orchard-gate-71")
        #expect(signUp.status == 303)
        return browser
    }

    static func accountExists(_ stack: JuiceStack, _ browser: Browser) async throws -> Bool {
        try await browser.get(stack.serverURL + "/api/me").status == 200
    }

    @Test("a planted juice_csrf cookie equal to the form field cannot delete the account, with Origin null, none or even same-origin")
    func plantedCookie() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            let victim = try await Self.signedInBrowser(stack, username: "victim")
            let planted = String(repeating: "A", count: 43)
            await victim.setCookie("juice_csrf", planted, host: "127.0.0.1")
            for origin in [[("Origin", "null")], [], [("Origin", stack.serverURL)]] {
                let delete = try await victim.postForm(stack.serverURL + "/account/delete", [("csrf", planted), ("confirm", "yes")], headers: origin)
                #expect(delete.status == 403, "\(origin)")
                #expect(delete.body.contains("invalid_csrf_token"))
            }
            #expect(try await Self.accountExists(stack, victim))
        }
    }

    @Test("a pre-session pair the attacker got from its own visit does not work in a signed-in victim's browser")
    func attackersOwnPair() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            let attacker = Browser()
            let page = try await attacker.get(stack.serverURL + "/")
            let attackerToken = try #require(Scrape.csrf(page.body))
            let attackerCookie = try #require(await attacker.cookie("juice_csrf", host: "127.0.0.1"))
            #expect(attackerToken != attackerCookie, "the form field is not the cookie's value")

            let victim = try await Self.signedInBrowser(stack, username: "victim2")
            await victim.setCookie("juice_csrf", attackerCookie, host: "127.0.0.1")
            let delete = try await victim.postForm(
                stack.serverURL + "/account/delete", [("csrf", attackerToken), ("confirm", "yes")], headers: [("Origin", stack.serverURL)])
            #expect(delete.status == 403)
            #expect(try await Self.accountExists(stack, victim))
        }
    }

    @Test("a session's token does not outlive the session: after sign-out and sign-in the old form is refused")
    func boundToSession() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            let browser = try await Self.signedInBrowser(stack, username: "rotator")
            let oldToken = try #require(Scrape.csrf(try await browser.get(stack.serverURL + "/account").body))
            let signOut = try await browser.postForm(stack.serverURL + "/signout", [("csrf", oldToken)], headers: [("Origin", stack.serverURL)])
            #expect(signOut.status == 303)
            #expect(try await PasswordAccountTests.signIn(stack, browser, username: "rotator", password: "orchard-gate-71").status == 303)
            let stale = try await browser.postForm(
                stack.serverURL + "/account/delete", [("csrf", oldToken), ("confirm", "yes")], headers: [("Origin", stack.serverURL)])
            #expect(stale.status == 403)
            let newToken = try #require(Scrape.csrf(try await browser.get(stack.serverURL + "/account").body))
            #expect(newToken != oldToken)
            #expect(try await Self.accountExists(stack, browser))
        }
    }

    @Test("Origin null is not same-origin; without Origin the Referer decides; with neither the form is refused")
    func originAndReferer() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            let browser = try await Self.signedInBrowser(stack, username: "referee")
            let token = try #require(Scrape.csrf(try await browser.get(stack.serverURL + "/account").body))
            let endOthers = stack.serverURL + "/account/sessions/end-others"
            let refused: [[(String, String)]] = [
                [("Origin", "null")],
                [],
                [("Referer", "https://evil.example/account")],
                [("Referer", "not a url")],
                [("Origin", "null"), ("Referer", stack.serverURL + "/account")],
            ]
            for headers in refused {
                let answer = try await browser.postForm(endOthers, [("csrf", token)], headers: headers)
                #expect(answer.status == 403, "\(headers)")
            }
            let viaReferer = try await browser.postForm(endOthers, [("csrf", token)], headers: [("Referer", stack.serverURL + "/account")])
            #expect(viaReferer.status == 303, "a same-origin Referer stands in for a missing Origin")
            #expect(viaReferer.location == "/account?notice=sessions_ended")

            // Signed out, the login form is bound to the pre-session cookie the same way.
            let fresh = Browser()
            let login = try #require(Scrape.csrf(try await fresh.get(stack.serverURL + "/").body))
            let noOrigin = try await fresh.postForm(stack.serverURL + "/signin", [("csrf", login), ("username", "referee"), ("password", "x")])
            #expect(noOrigin.status == 403)
            let signIn = try await fresh.postForm(
                stack.serverURL + "/signin", [("csrf", login), ("username", "referee"), ("password", "orchard-gate-71")],
                headers: [("Referer", stack.serverURL + "/")])
            #expect(signIn.status == 303 && signIn.location == "/account")
        }
    }
}
