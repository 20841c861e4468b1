import Foundation
import JuiceTestSupport
import Testing

/// What a server sends (an error's reason, an account's name, a passkey's name) reaches the terminal shown,
/// never acted on: the client commands print it `terminalEscaped`, as the kit prints a backend's text.
@Suite("juice client commands: a server's text on the terminal is shown, not sent")
struct ServerTextEscapingTests {
    @Test("a server's refusal whose reason carries escape sequences, BEL, a C1 CSI and a direction override reaches stderr escaped")
    func refusalReasonEscaped() async throws {
        let reason = #"\u001b[2J\u001b]0;pwned\u0007\u009b31m\u202etxt"#
        let body = #"{"error": "invalid_credentials", "reason": "\#(reason)"}"#
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await ScriptedHTTPServer.with(.json(status: 401, body: body)) { server in
            let result = try await JuiceProcess.run(
                ["login", "--password", "--username", "kiwi", "--server", server.url("")], stdin: "fresh-squeezed-42\n",
                environment: ["JUICE_HOME": home.url.path, "HOME": home.url.path, "PATH": "/usr/bin:/bin"], timeout: .seconds(60))
            #expect(result.status != 0)
            #expect(!result.stderr.unicodeScalars.contains { [0x1B, 0x07, 0x9B, 0x202E].contains($0.value) }, "\(result.stderr)")
            #expect(result.stderr.contains(#"\u{1B}[2J\u{1B}]0;pwned\u{7}\u{9B}31m\u{202E}txt"#), "\(result.stderr)")
        }
    }
}
