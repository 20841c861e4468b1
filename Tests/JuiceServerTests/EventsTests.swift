import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import AppleIDEmulator

@Suite("GET /api/events: server-sent events for a session (credential revoked, session ended)")
struct EventsTests {
    @Test("a consent revocation at Apple reaches an open stream as credential-revoked, then the stream ends")
    func revoked() async throws {
        try await JuiceStack.with { stack in
            let (token, _, credential) = try await NativeFlow.signIn(stack)
            let stream = try await EventStream(stack.serverURL + "/api/events", bearer: token)
            #expect(stream.status == 200)
            #expect(stream.contentType?.hasPrefix("text/event-stream") == true)
            #expect(await stream.next() == .init(name: "ready", data: #"{"state":"authorized"}"#))
            try await stack.admin("revoke-consent", ["apple_id": StackEnvironment.johnny.email, "client_id": StackEnvironment.bundleID])
            let event = await stream.next()
            #expect(event?.name == "credential-revoked")
            #expect(event?.data == #"{"state":"revoked","user":"\#(credential.user)"}"#)
            #expect(await stream.ended(), "the stream ends after the revocation")
        }
    }

    @Test("signing out elsewhere ends the stream with session-ended; deleting the account is credential-revoked (notFound)")
    func sessionEnded() async throws {
        try await JuiceStack.with { stack in
            let (token, _, credential) = try await NativeFlow.signIn(stack)
            let stream = try await EventStream(stack.serverURL + "/api/events", bearer: token)
            #expect(await stream.next()?.name == "ready")
            #expect(try await APIRequests.json(stack, "POST", "/api/signout", bearer: token).status == 200)
            #expect(await stream.next() == .init(name: "session-ended", data: "{}"))
            #expect(await stream.ended())

            let (second, _, _) = try await NativeFlow.signIn(stack)
            let again = try await EventStream(stack.serverURL + "/api/events", bearer: second)
            #expect(await again.next()?.name == "ready")
            #expect(try await APIRequests.json(stack, "DELETE", "/api/account", bearer: second).status == 200)
            #expect(await again.next() == .init(name: "credential-revoked", data: #"{"state":"notFound","user":"\#(credential.user)"}"#))
        }
    }

    @Test("without a valid session: 401 JSON; a password account's stream is ready with notFound; shutdown ends an open stream")
    func refusedAndShutdown() async throws {
        let stream = try await JuiceStack.with { stack in
            for bearer in [nil, "not-a-session"] {
                let refused = try await EventStream(stack.serverURL + "/api/events", bearer: bearer)
                #expect(refused.status == 401)
            }
            let signUp = try await APIRequests.json(stack, "POST", "/api/accounts", ["username": "sse.user", "password": "squeeze-me-123"])
            let token = try #require(signUp.json?["token"] as? String)
            let stream = try await EventStream(stack.serverURL + "/api/events", bearer: token)
            #expect(await stream.next() == .init(name: "ready", data: #"{"state":"notFound"}"#))
            return stream
        }
        // The stack has shut down gracefully with the stream open: the server ended it.
        #expect(await stream.ended(timeout: .seconds(30)))
    }
}
