import Foundation
import JuiceClient
import JuiceTestSupport
import Synchronization
import Testing

@Suite("Browser opener")
struct BrowserOpenerTests {
    /// A URL with characters a shell would interpret.
    let url = URL(string: "http://127.0.0.1:8080/auth/apple/native?redirect_uri=http%3A%2F%2F127.0.0.1%3A5%2Fcallback&state=a;b&nonce=$(touch%20x)'")!

    /// Collects announced lines.
    final class Announcements: Sendable {
        let lines = Mutex([String]())
        var all: String { lines.withLock { $0.joined(separator: "\n") } }
        var sink: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
    }

    private func recorded(_ file: URL) async throws -> String? {
        try await eventually { try? String(contentsOf: file, encoding: .utf8).split(separator: "\n").first.map(String.init) }
    }

    @Test("runs $BROWSER with the URL as its one argument, uninterpreted by the shell")
    func browserVariable() async throws {
        try await TemporaryDirectory.with { temp in
            let record = temp.file("argument")
            let script = try temp.script("browser", "printf '%s\\n' \"$#:$1\" > '\(record.path)'")
            let announcements = Announcements()
            let opener = BrowserOpener(environment: ["BROWSER": script, "PATH": "/usr/bin:/bin"], announce: announcements.sink)
            #expect(opener.open(url) == .browserCommand(script))
            #expect(try await recorded(record) == "1:" + url.absoluteString)
            #expect(!FileManager.default.fileExists(atPath: temp.file("x").path))
            #expect(announcements.all.contains(url.absoluteString))
        }
    }

    @Test("accepts a $BROWSER command with its own arguments")
    func browserWithArguments() async throws {
        try await TemporaryDirectory.with { temp in
            let record = temp.file("argument")
            let script = try temp.script("browser", "printf '%s|%s\\n' \"$1\" \"$2\" > '\(record.path)'")
            let opener = BrowserOpener(environment: ["BROWSER": "\(script) --new-window"], announce: { _ in })
            opener.open(url)
            #expect(try await recorded(record) == "--new-window|" + url.absoluteString)
        }
    }

    @Test("the browser gets none of the CLI's open descriptors, even those without close-on-exec (a listening socket would stay bound)")
    func noInheritedDescriptors() async throws {
        try await TemporaryDirectory.with { temp in
            let record = temp.file("descriptor")
            let plain = open("/dev/null", O_RDONLY)  // no O_CLOEXEC
            let high = fcntl(plain, F_DUPFD, 300)  // above any descriptor the shell opens for itself
            close(plain)
            try #require(high >= 300)
            defer { close(high) }
            let script = try temp.script(
                "browser", "if [ -e /proc/$$/fd/\(high) ]; then echo inherited; else echo closed; fi > '\(record.path)'")
            let opener = BrowserOpener(environment: ["BROWSER": script, "PATH": "/usr/bin:/bin"], announce: { _ in })
            #expect(opener.open(url) == .browserCommand(script))
            #expect(try await recorded(record) == "closed")
        }
    }

    @Test("falls back to xdg-open on the PATH")
    func xdgOpen() async throws {
        try await TemporaryDirectory.with { temp in
            let record = temp.file("argument")
            let script = try temp.script("xdg-open", "printf '%s\\n' \"$1\" > '\(record.path)'")
            let opener = BrowserOpener(environment: ["PATH": "/nonexistent:\(temp.path)"], announce: { _ in })
            #expect(opener.open(url) == .xdgOpen(script))
            #expect(try await recorded(record) == url.absoluteString)
        }
    }

    @Test("prints the URL when there is no browser")
    func printsOtherwise() async throws {
        try await TemporaryDirectory.with { temp in
            let announcements = Announcements()
            let opener = BrowserOpener(environment: ["BROWSER": "  ", "PATH": temp.path], announce: announcements.sink)
            #expect(opener.open(url) == .printed)
            #expect(announcements.all == "Open this address in a browser to sign in:\n  \(url.absoluteString)")
        }
    }
}
