import Foundation
import JuiceStackSupport
import JuiceTestSupport
import SQLKit
import Testing

@testable import AppleIDEmulator
@testable import JuiceServer

@Suite("Apple's server-to-server notifications, sent by the emulator to POST /apple/notifications")
struct NotificationTests {
    /// The identity's stored state and forwarding flag.
    static func identity(_ stack: JuiceStack, subject: String) async throws -> (state: String, forwarding: Int?, hasRefreshToken: Bool)? {
        try await stack.withDatabase { database in
            try await database.read { sql in
                guard
                    let row = try await sql.select().columns("state", "email_forwarding", "refresh_token").from("apple_identities")
                        .where("subject", .equal, subject).first()
                else { return nil }
                return (
                    try row.decode(column: "state", as: String.self), try row.decode(column: "email_forwarding", as: Int?.self),
                    try row.decode(column: "refresh_token", as: String?.self) != nil
                )
            }
        }
    }

    @Test("consent-revoked: the credential state becomes revoked and every session of the account ends; signing in again authorizes")
    func consentRevoked() async throws {
        try await JuiceStack.with { stack in
            let (token, _, credential) = try await NativeFlow.signIn(stack)
            let browser = Browser()
            #expect(try await AppleFlow.signIn(stack, browser).status == 303, "a second session, on the web")
            #expect(try await NativeFlow.credentialState(stack, user: credential.user) == "authorized")
            try await stack.admin("revoke-consent", ["apple_id": StackEnvironment.johnny.email, "client_id": StackEnvironment.bundleID])
            #expect(try await NativeFlow.eventually { try await NativeFlow.credentialState(stack, user: credential.user) == "revoked" })
            #expect(try await AppleFlow.me(stack, token: token).status == 401)
            #expect(try await browser.get(stack.serverURL + "/api/me").status == 401, "the web session ended too")
            #expect(try await Self.identity(stack, subject: credential.user)?.hasRefreshToken == false)
            let (_, account, _) = try await NativeFlow.signIn(stack)
            #expect(account["user"] as? String == credential.user)
            #expect(try await NativeFlow.credentialState(stack, user: credential.user) == "authorized")
        }
    }

    @Test("account-delete: the Apple ID is revoked and its sessions end")
    func accountDeleted() async throws {
        try await JuiceStack.with { stack in
            let (token, _, credential) = try await NativeFlow.signIn(stack, account: StackEnvironment.jane)
            try await stack.admin("delete-apple-id", ["apple_id": StackEnvironment.jane.email])
            #expect(try await NativeFlow.eventually { try await Self.identity(stack, subject: credential.user)?.state == "deleted" })
            #expect(try await NativeFlow.credentialState(stack, user: credential.user) == "revoked")
            #expect(try await AppleFlow.me(stack, token: token).status == 401)
        }
    }

    @Test("email-disabled and email-enabled record the relay address's forwarding")
    func emailForwarding() async throws {
        try await JuiceStack.with { stack in
            let (_, account, credential) = try await NativeFlow.signIn(stack, emailChoice: "hide")
            #expect(account["isPrivateEmail"] as? Bool == true)
            #expect(try await Self.identity(stack, subject: credential.user)?.forwarding == nil)
            let change: [String: Any] = ["apple_id": StackEnvironment.johnny.email, "team_id": StackEnvironment.teamID, "enabled": false]
            try await stack.admin("set-email-forwarding", change)
            #expect(try await NativeFlow.eventually { try await Self.identity(stack, subject: credential.user)?.forwarding == 0 })
            var enable = change
            enable["enabled"] = true
            try await stack.admin("set-email-forwarding", enable)
            #expect(try await NativeFlow.eventually { try await Self.identity(stack, subject: credential.user)?.forwarding == 1 })
            #expect(try await NativeFlow.credentialState(stack, user: credential.user) == "authorized", "email events do not revoke")
        }
    }

    @Test(
        "a real notification delivered twice is applied once (duplicate jti); forged and malformed ones are refused with 400",
        arguments: TestDatabase.all)
    func duplicateAndForged(database: TestDatabase) async throws {
        try await StackEnvironment.with(database) { made in
            var environment = made
            let tapPort = try FreePort.pick()
            environment.notifications = .url("http://127.0.0.1:\(tapPort)/apple/notifications")
            let target = environment.serverURL + "/apple/notifications"
            let configured = environment
            try await NotificationTap.with(port: tapPort, target: target) { tap in
                try await JuiceStack.with(environment: configured) { stack in
                    let (_, _, credential) = try await NativeFlow.signIn(stack)
                    try await stack.admin(
                        "revoke-consent", ["apple_id": StackEnvironment.johnny.email, "client_id": StackEnvironment.bundleID])
                    #expect(try await NativeFlow.eventually { try await NativeFlow.credentialState(stack, user: credential.user) == "revoked" })
                    let delivered = try #require(await tap.bodies.first)

                    // Signed in again, then Apple's earlier notification arrives once more: nothing changes.
                    let (token, _, _) = try await NativeFlow.signIn(stack)
                    let again = try await APIRequests.raw(stack, "/apple/notifications", contentType: "application/json", body: delivered)
                    #expect(again.status == 200)
                    #expect(again.json?["status"] as? String == "duplicate")
                    #expect(try await AppleFlow.me(stack, token: token).status == 200)
                    #expect(try await NativeFlow.credentialState(stack, user: credential.user) == "authorized")
                    let seen = try await stack.withDatabase { database in
                        try await database.read { sql in try await sql.select().column("jti").from("notifications_seen").all().count }
                    }
                    #expect(seen == 1)

                    // Forged: the payload's signature altered.
                    let payload = try #require(
                        (try JSONSerialization.jsonObject(with: Data(delivered.utf8)) as? [String: Any])?["payload"] as? String
                    )
                    let parts = payload.split(separator: ".").map(String.init)
                    let forgedPayload = parts[0] + "." + parts[1] + "." + String(parts[2].reversed())
                    let forged = try await APIRequests.raw(
                        stack, "/apple/notifications", contentType: "application/json", body: #"{"payload": "\#(forgedPayload)"}"#)
                    #expect(forged.status == 400)
                    #expect(forged.error == "bad_signature" || forged.error == "malformed")
                    #expect(forged.json?["reason"] is String)
                    let notJSON = try await APIRequests.raw(stack, "/apple/notifications", contentType: "application/json", body: "payload=x")
                    #expect(notJSON.status == 400 && notJSON.error == "malformed")
                    // A genuine notification sent as text is refused unread: 415, and it changes nothing.
                    for contentType in ["text/plain", "application/x-www-form-urlencoded", "application/jsonp"] {
                        let text = try await APIRequests.raw(stack, "/apple/notifications", contentType: contentType, body: delivered)
                        #expect(text.status == 415 && text.error == "unsupported_media_type", "\(contentType)")
                    }
                    let none = try await APIRequests.raw(
                        stack, "/apple/notifications", contentType: "application/json", body: #"{"payload": "a.b.c"}"#)
                    #expect(none.status == 400)
                    #expect(try await AppleFlow.me(stack, token: token).status == 200, "no refused notification changed anything")
                }
            }
        }
    }
}
