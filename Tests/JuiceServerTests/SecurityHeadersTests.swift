import Foundation
import Hummingbird
import HummingbirdTesting
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import JuiceServer

@Suite("Security headers: no-store on everything that carries a token or personal data, HSTS behind https")
struct SecurityHeadersTests {
    @Test("the API's answers — success, refusal and not found — are never stored; no HSTS over http")
    func noStoreOnTheAPI() async throws {
        try await JuiceStack.with { stack in
            let created = try await APIRequests.json(stack, "POST", "/api/accounts", ["username": "headers", "password": "marmalade-sky-17"])
            #expect(created.status == 201)
            let token = try #require(created.json?["token"] as? String)
            let answers = [
                created,
                try await APIRequests.json(stack, "POST", "/api/auth/password", ["username": "headers", "password": "marmalade-sky-17"]),
                try await APIRequests.json(stack, "POST", "/api/auth/password", ["username": "headers", "password": "wrong-password-1"]),
                try await Browser().get(stack.serverURL + "/api/me", headers: [("Authorization", "Bearer \(token)")]),
                try await Browser().get(stack.serverURL + "/api/me"),
                try await Browser().get(stack.serverURL + "/api/no-such-route"),
            ]
            for answer in answers {
                #expect(answer[header: "Cache-Control"] == "no-store", "\(answer.status)")
                #expect(answer[header: "Strict-Transport-Security"] == nil)
            }
        }
    }

    @Test("with an https public URL every answer carries HSTS; pages outside the private paths keep their own caching")
    func strictTransportSecurity() async throws {
        let router = Router(context: AppRequestContext.self)
        router.add(middleware: SecurityHeadersMiddleware(strictTransportSecurity: true))
        router.get("/api/me") { _, _ in "{}" }
        router.get("/public.css") { _, _ in
            Response(status: .ok, headers: [.cacheControl: "public, max-age=60"], body: .init(byteBuffer: ByteBuffer(string: "")))
        }
        router.get("/plain") { _, _ in "x" }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/api/me", method: .get) { response in
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(response.headers[.strictTransportSecurity] == "max-age=31536000")
            }
            try await client.execute(uri: "/public.css", method: .get) { response in
                #expect(response.headers[.cacheControl] == "public, max-age=60")
                #expect(response.headers[.strictTransportSecurity] == "max-age=31536000")
            }
            try await client.execute(uri: "/plain", method: .get) { response in
                #expect(response.headers[.cacheControl] == nil)
            }
        }
    }
}
