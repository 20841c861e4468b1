import Foundation
import JuiceProcesses
import JuiceStackSupport
import JuiceTestSupport
import NIOHTTP1
import Testing

@testable import JuiceServer

@Suite("The JSON API: password accounts, sessions, errors, the OpenAPI document")
struct APITests {
    @Test("password sign-up (201), sign-in, /api/me, sign-out and deletion over JSON with bearer tokens")
    func passwordAccounts() async throws {
        try await JuiceStack.with { stack in
            let signUp = try await APIRequests.json(stack, "POST", "/api/accounts", ["username": "Grove", "password": "fresh-squeezed"])
            #expect(signUp.status == 201)
            let token = try #require(signUp.json?["token"] as? String)
            #expect((signUp.json?["account"] as? [String: Any])?["username"] as? String == "grove")
            let taken = try await APIRequests.json(stack, "POST", "/api/accounts", ["username": "grove", "password": "fresh-squeezed"])
            #expect(taken.status == 409 && taken.error == "username_taken")
            let short = try await APIRequests.json(stack, "POST", "/api/accounts", ["username": "pulp", "password": "short"])
            #expect(short.status == 400 && short.error == "invalid_password")

            let wrong = try await APIRequests.json(stack, "POST", "/api/auth/password", ["username": "grove", "password": "wrong-password"])
            #expect(wrong.status == 401 && wrong.error == "invalid_credentials")
            let signIn = try await APIRequests.json(stack, "POST", "/api/auth/password", ["username": "grove", "password": "fresh-squeezed"])
            #expect(signIn.status == 200)
            let second = try #require(signIn.json?["token"] as? String)
            #expect(second != token)

            #expect(try await APIRequests.json(stack, "GET", "/api/me", bearer: token).json?["username"] as? String == "grove")
            let signOut = try await APIRequests.json(stack, "POST", "/api/signout", bearer: token)
            #expect(signOut.status == 200 && signOut.json?["signedOut"] as? Bool == true)
            #expect(try await APIRequests.json(stack, "GET", "/api/me", bearer: token).status == 401)
            #expect(try await APIRequests.json(stack, "POST", "/api/signout", bearer: token).error == "unauthorized")

            let state = try await APIRequests.json(stack, "GET", "/api/credential-state", bearer: second)
            #expect(state.json?["state"] as? String == "notFound", "a password account has no Apple ID")
            let deleted = try await APIRequests.json(stack, "DELETE", "/api/account", bearer: second)
            #expect(deleted.status == 200)
            #expect(deleted.json?["deleted"] as? Bool == true)
            #expect(deleted.json?["appleRevocation"] as? String == "none")
            #expect(try await APIRequests.json(stack, "GET", "/api/me", bearer: second).status == 401)
            let again = try await APIRequests.json(stack, "POST", "/api/auth/password", ["username": "grove", "password": "fresh-squeezed"])
            #expect(again.error == "invalid_credentials")
        }
    }

    @Test("malformed JSON, missing fields, wrong types, a wrong content type and an oversized body: 400, 415, 413 with {error, reason}")
    func malformedRequests() async throws {
        try await JuiceStack.with { stack in
            for path in ["/api/auth/apple", "/api/accounts", "/api/auth/password"] {
                let broken = try await APIRequests.raw(stack, path, contentType: "application/json", body: "{\"identityToken\": ")
                #expect(broken.status == 400, "\(path)")
                #expect(broken.error == "invalid_request")
                #expect(broken.json?["reason"] is String)
                let notObject = try await APIRequests.raw(stack, path, contentType: "application/json", body: "[1, 2]")
                #expect(notObject.status == 400 && notObject.error == "invalid_request")
                let missing = try await APIRequests.raw(stack, path, contentType: "application/json; charset=utf-8", body: "{}")
                #expect(missing.status == 400 && missing.error == "invalid_request")
                let wrongType = try await APIRequests.raw(
                    stack, path, contentType: "application/json", body: #"{"username": 7, "password": [], "identityToken": 1, "nonce": {}}"#)
                #expect(wrongType.status == 400 && wrongType.error == "invalid_request")
                let form = try await APIRequests.raw(stack, path, contentType: "application/x-www-form-urlencoded", body: "username=a&password=b")
                #expect(form.status == 415 && form.error == "unsupported_media_type")
                let none = try await APIRequests.raw(stack, path, contentType: nil, body: "{}")
                #expect(none.status == 415)
                let huge = try await APIRequests.raw(
                    stack, path, contentType: "application/json", body: #"{"username": ""# + String(repeating: "a", count: 70_000) + #""}"#
                )
                #expect(huge.status == 413 && huge.error == "payload_too_large")
            }
            let secret = "hunter2-secret-password"
            let leak = try await APIRequests.raw(
                stack, "/api/accounts", contentType: "application/json", body: #"{"username": 7, "password": "\#(secret)"}"#)
            #expect(leak.status == 400 && !leak.body.contains(secret), "a refusal never echoes a password")
            let unknown = try await APIRequests.json(stack, "GET", "/api/nothing-here")
            #expect(unknown.status == 404 && unknown.error == "not_found")
            let wrongMethod = try await Browser().get(stack.serverURL + "/apple/notifications")
            #expect([404, 405].contains(wrongMethod.status) && wrongMethod.error != nil, "machine routes answer JSON errors, not pages")
            let noSession = try await APIRequests.json(stack, "GET", "/api/credential-state")
            #expect(noSession.status == 401 && noSession.error == "unauthorized")
            #expect(try await NativeFlow.credentialState(stack, user: "000000.unknown.0000") == "notFound")
        }
    }

    @Test("a cookie-authenticated sign-out or deletion from another origin is refused")
    func crossOriginCookie() async throws {
        try await JuiceStack.with { stack in
            let browser = Browser()
            #expect(try await PasswordAccountTests.signUp(stack, browser, username: "cookie-user", password: "cookie-password").status == 303)
            let cross = try await browser.send(.DELETE, stack.serverURL + "/api/account", headers: [("Origin", "https://evil.example")], body: nil)
            #expect(cross.status == 403)
            let noOrigin = try await browser.send(.POST, stack.serverURL + "/api/signout", headers: [], body: nil)
            #expect(noOrigin.status == 403)
            #expect(try await browser.get(stack.serverURL + "/api/me").status == 200, "still signed in")
            let same = try await browser.send(.POST, stack.serverURL + "/api/signout", headers: [("Origin", stack.serverURL)], body: nil)
            #expect(same.status == 200)
        }
    }

    @Test("GET /openapi.yaml serves docs/openapi.yaml, a valid OpenAPI 3.1 document covering every route")
    func openAPI() async throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(String(decoding: OpenAPIDocument.yaml, as: UTF8.self) == text, "the served document is docs/openapi.yaml")
        for path in [
            "/api/auth/nonce:", "/api/auth/apple:", "/api/accounts:", "/api/auth/password:", "/api/me:", "/api/signout:", "/api/account:",
            "/api/credential-state:", "/auth/apple/native:", "/apple/notifications:", "/api/account/password:", "/api/account/sessions:",
            "/api/account/sessions/{id}:", "/.well-known/apple-app-site-association:", "/.well-known/change-password:",
            "/auth/apple/popup:", "/auth/apple/popup/complete:", "/api/passkeys/registration/options:", "/api/passkeys/registration:",
            "/api/passkeys:", "/api/passkeys/{id}:", "/api/auth/passkey/options:", "/api/auth/passkey:",
        ] {
            #expect(text.contains("\n  \(path)\n"), "\(path) is documented")
        }
        // openapi-spec-validator (PyPI; .ci/run installs it) checks the document against the 3.1 schema.
        let validation = try await SpawnedChild.python([
            "-c", "import sys, yaml; from openapi_spec_validator import validate; validate(yaml.safe_load(open(sys.argv[1]))); print('valid')",
            file.path,
        ])
        #expect(validation.exit == .exited(0), "openapi-spec-validator: \(validation.outputText) \(validation.errorText)")

        try await JuiceStack.with { stack in
            let served = try await Browser().get(stack.serverURL + "/openapi.yaml")
            #expect(served.status == 200)
            #expect(served[header: "Content-Type"]?.hasPrefix("application/yaml") == true)
            #expect(served.body == text)
        }
    }
}
