import Foundation
import Hummingbird
import JuiceStackSupport
import JuiceTestSupport
import NIOHTTP1
import Testing

@testable import JuiceServer

@Suite("Methods: HEAD for every GET route, 405 with Allow for a known path with another method")
struct MethodsTests {
    @Test("HEAD answers like GET without a body, on pages, the API and errors")
    func head() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            for path in ["/", "/signup", "/health", "/openapi.yaml", "/.well-known/apple-app-site-association", "/api/me"] {
                let get = try await Browser().get(stack.serverURL + path)
                let head = try await Browser().send(.HEAD, stack.serverURL + path, headers: [], body: nil)
                #expect(head.status == get.status, "\(path)")
                #expect(head.body.isEmpty, "\(path)")
                #expect(head[header: "Content-Type"] == get[header: "Content-Type"], "\(path)")
                #expect(head[header: "Cache-Control"] == get[header: "Cache-Control"], "\(path)")
            }
            #expect(try await Browser().send(.HEAD, stack.serverURL + "/no-such-page", headers: [], body: nil).status == 404)
        }
    }

    @Test("a known path with an unknown method is 405 with Allow (JSON under /api/, a page elsewhere); an unknown path stays 404")
    func methodNotAllowed() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            let cases: [(HTTPMethod, String, String)] = [
                (.PUT, "/", "GET, HEAD"),
                (.DELETE, "/signin", "POST"),
                (.PATCH, "/api/me", "GET, HEAD"),
                (.GET, "/api/auth/password", "POST"),
                (.GET, "/api/account/sessions/some-id", "DELETE"),
                (.POST, "/api/account", "DELETE"),
                (.GET, "/apple/notifications", "POST"),
                (.RAW(value: "PROPFIND"), "/account", "GET, HEAD"),
                // A constant segment wins over a capture, as in the router: `upgrade` is no passkey id.
                (.OPTIONS, "/api/passkeys/upgrade", "POST"),
                (.GET, "/api/passkeys/some-id", "DELETE, PATCH"),
            ]
            for (method, path, allow) in cases {
                let answer = try await Browser().send(method, stack.serverURL + path, headers: [], body: nil)
                #expect(answer.status == 405, "\(method) \(path)")
                #expect(answer[header: "Allow"] == allow, "\(method) \(path)")
                if path.hasPrefix("/api/") || path == "/apple/notifications" {
                    #expect(answer.error == "method_not_allowed", "\(method) \(path)")
                } else {
                    #expect(answer[header: "Content-Type"]?.hasPrefix("text/html") == true, "\(method) \(path)")
                    #expect(answer.body.contains("This page cannot be used that way."), "\(method) \(path)")
                }
            }
            let missing = try await Browser().send(.PUT, stack.serverURL + "/api/nothing-here", headers: [], body: nil)
            #expect(missing.status == 404 && missing[header: "Allow"] == nil)
        }
    }

    @Test("route patterns match segment by segment")
    func patterns() {
        func match(_ pattern: String, _ path: String) -> Bool {
            MethodNotAllowedMiddleware<AppRequestContext>.matches(.init(pattern), path.split(separator: "/"))
        }
        #expect(match("/api/account/sessions/{id}", "/api/account/sessions/abc"))
        #expect(!match("/api/account/sessions/{id}", "/api/account/sessions"))
        #expect(!match("/api/account/sessions/{id}", "/api/account/sessions/abc/def"))
        #expect(match("/", "/"))
        #expect(!match("/", "/x"))
        #expect(match("/files/**", "/files/a/b/c"))
    }
}
