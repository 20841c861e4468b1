import Foundation
import JuiceStackSupport
import JuiceTestSupport
import SQLKit
import Testing

@testable import JuiceServer

/// A Sign in with Apple at Work & School account that gives apps no email signs in to Juice.
@Suite("Work & School sign-in without an email")
struct ManagedAccountSignInTests {
    @Test(
        "a managed account without an email signs in; the account page says there is no email (en, zh-Hans); no welcome mail",
        arguments: TestDatabase.all)
    func signInWithoutEmail(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let browser = Browser()
            let post = try await AppleFlow.authorize(try await AppleFlow.start(stack, browser), account: StackEnvironment.pupil, browser: browser)
            #expect(post.field("user")?.contains("email") == false, "Apple sends no email for this account")
            let callback = try await AppleFlow.deliver(post, stack, browser)
            #expect(callback.status == 303)
            #expect(callback.location == "/account")
            let token = try #require(callback.cookieValue("juice_session"))
            let account = try await browser.get(stack.serverURL + "/account")
            #expect(account.status == 200)
            #expect(Scrape.element("given-name", in: account.body) == "Pat")
            #expect(account.body.contains("No email: Apple did not share one (Work &amp; School accounts may have none)"))
            // A returning sign-in in Chinese says the same.
            let chineseBrowser = Browser(acceptLanguage: "zh-CN,zh;q=0.9")
            #expect(try await AppleFlow.signIn(stack, chineseBrowser, account: StackEnvironment.pupil).status == 303)
            let chinese = try await chineseBrowser.get(stack.serverURL + "/account")
            #expect(chinese.body.contains("无电子邮件：Apple 未提供"))
            let me = try await AppleFlow.me(stack, token: token)
            #expect(me.status == 200)
            #expect(me.json?["email"] == nil || me.json?["email"] is NSNull)
            try await stack.withDatabase { database in
                let queued = try await database.read { sql in try await sql.select().column("id").from("mail_outbox").all().count }
                #expect(queued == 0)
            }
        }
    }
}
