import Foundation
import JuiceProcesses
import JuiceTestSupport
import NIOHTTP1
import Testing

@Suite("juice serve shuts down gracefully")
struct GracefulShutdownTests {
    @Test("a request in flight when SIGTERM arrives still completes; then the process exits 0", .timeLimit(.minutes(2)))
    func inFlightRequestCompletes() async throws {
        let serve = try ServeProcess()
        defer { serve.stop() }
        try await serve.start()

        // A real sign-up: the page's CSRF cookie and field, then a POST whose body arrives in two parts.
        let page = try await TestHTTP(timeout: .seconds(10)).get(serve.url + "/signup")
        let html = page.body
        let cookie = try #require(page.headers["Set-Cookie"].first { $0.hasPrefix("juice_csrf=") }?.split(separator: ";").first.map(String.init))
        let csrf = try #require(html.firstMatch(of: /name="csrf" value="([^"]+)"/)?.1).description
        let body = "csrf=\(csrf)&username=graceful.user&password=squeeze-me-123"
        let connection = try RawHTTPConnection(port: serve.port)
        try connection.send(
            "POST /signup HTTP/1.1\r\nHost: 127.0.0.1:\(serve.port)\r\nOrigin: \(serve.url)\r\nCookie: \(cookie)\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body.prefix(10)
        )
        // A margin, not a gate: the server shows no sign of having read a head whose body has not come; if
        // SIGTERM came first, the connection would be idle and closed, and the test would fail, not pass.
        try await Task.sleep(for: .milliseconds(300))

        serve.terminate()
        // Shutdown has begun once the listener is closed (the quiescing server stops accepting first).
        try await eventually("juice serve closed its listener after SIGTERM", timeout: .seconds(20)) {
            guard let socket = LoopbackSocket.connected(toPort: serve.port) else { return true }
            close(socket)
            return false
        }
        #expect(serve.isRunning, "the server waits for the request in flight")

        try connection.send(String(body.dropFirst(10)))
        let response = connection.readAll()
        #expect(response.hasPrefix("HTTP/1.1 303"), "\(response.prefix(300))")
        #expect(response.contains("Location: /account?notice=welcome") || response.lowercased().contains("location: /account?notice=welcome"))
        #expect(response.contains("juice_session="), "the sign-up completed with a session")

        #expect(try await serve.waitForExit(seconds: 20), "the process exits once the request is answered")
        #expect(serve.child?.exit == .exited(0))
    }
}
