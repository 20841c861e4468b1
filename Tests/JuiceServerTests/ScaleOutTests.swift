import Foundation
import JuiceStackSupport
import JuiceTestSupport
import SQLKit
import Testing

@testable import JuiceServer

@Suite("Several server instances on one database behave as one")
struct ScaleOutTests {
    /// Apple's answer delivered to instance `index` instead of the public URL.
    static func deliver(_ post: AppleFlow.ApplePost, to index: Int, _ stack: JuiceStack, _ browser: Browser) async throws -> HTTPResult {
        let action = post.action.replacingOccurrences(of: stack.serverURL, with: stack.instanceURLs[index])
        return try await AppleFlow.deliver(AppleFlow.ApplePost(action: action, fields: post.fields), stack, browser)
    }

    @Test("a sign-in begun on one instance completes on another; replaying it to the first is refused with no session", arguments: TestDatabase.all)
    func replayAcrossInstances(database: TestDatabase) async throws {
        try await JuiceStack.withInstances(2, database: database) { stack in
            #expect(stack.instanceURLs.count == 2)
            let browser = Browser()
            let post = try await AppleFlow.authorize(try await AppleFlow.start(stack, browser), browser: browser)
            let completed = try await Self.deliver(post, to: 1, stack, browser)
            #expect(completed.status == 303, "instance 2 completes what instance 1 began: \(completed.status)")
            let token = try #require(completed.cookieValue("juice_session"))
            #expect(try await AppleFlow.me(stack, token: token).status == 200, "instance 1 knows instance 2's session")

            let replay = try await Self.deliver(post, to: 0, stack, Browser())
            #expect(replay.status == 400)
            #expect(replay.body.contains("invalid_state"))
            #expect(replay.setCookies["juice_session"] == nil)
            try await stack.withDatabase { database in
                let sessions = try await database.read { sql in try await sql.select().column("id").from("sessions").all().count }
                #expect(sessions == 1, "the replay started no session")
            }
        }
    }

    @Test("the same answer posted to two instances at once signs in exactly once", arguments: TestDatabase.all)
    func concurrentDelivery(database: TestDatabase) async throws {
        try await JuiceStack.withInstances(2, database: database) { stack in
            for _ in 0..<3 {
                let browser = Browser()
                let post = try await AppleFlow.authorize(try await AppleFlow.start(stack, browser), browser: browser)
                // Apple's post arrives twice; whichever consumes the state hands over to its browser.
                async let first = Self.deliver(post, to: 0, stack, browser)
                async let second = Self.deliver(post, to: 1, stack, browser)
                let statuses = try await [first.status, second.status].sorted()
                #expect(statuses == [303, 400], "one winner, one refusal: \(statuses)")
            }
            try await stack.withDatabase { database in
                let sessions = try await database.read { sql in try await sql.select().column("id").from("sessions").all().count }
                #expect(sessions == 3)
            }
        }
    }
}
