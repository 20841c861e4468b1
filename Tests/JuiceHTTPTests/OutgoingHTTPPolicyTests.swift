import Foundation
import Testing

/// No code in `Sources/` makes an outgoing request with a client that follows redirects, or without the
/// bounded exchange: clients come from `OutgoingHTTP` only, and requests go through `boundedExecute`
/// (issue 40). Read from the sources, so a new call site that forgets the rule fails here.
@Suite("Outgoing HTTP policy, read from the sources")
struct OutgoingHTTPPolicyTests {
    /// The package's `Sources/` directory.
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Every Swift file under `Sources/` outside `JuiceHTTP`, with its path relative to `Sources/`.
    static func files() throws -> [(path: String, text: String)] {
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        var files: [(String, String)] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let path = String(url.path.dropFirst(sources.path.count + 1))
            if path.hasPrefix("JuiceHTTP/") { continue }
            files.append((path, try String(contentsOf: url, encoding: .utf8)))
        }
        return files
    }

    /// The code of `text` without `//` comments (doc comments may name what they forbid).
    static func code(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let trimmed = line.drop { $0 == " " }
            return trimmed.hasPrefix("//") ? "" : String(line)
        }
    }

    @Test("no HTTPClient is built, configured for redirects or taken from HTTPClient.shared outside OutgoingHTTP")
    func clientsComeFromOutgoingHTTP() throws {
        let forbidden = [
            "HTTPClient(", "HTTPClient.Configuration(", "HTTPClient.shared", "redirectConfiguration", ": HTTPClient = .shared",
            "HTTPClient = .shared",
        ]
        let files = try Self.files()
        #expect(files.count > 100, "Sources/ not found at \(Self.sources.path)")
        var offences: [String] = []
        for (path, text) in files {
            for (number, line) in Self.code(text).enumerated() where forbidden.contains(where: line.contains) {
                offences.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offences.isEmpty, "build clients with OutgoingHTTP.makeClient():\n\(offences.joined(separator: "\n"))")
    }

    @Test("every request goes through boundedExecute (one deadline for head and body, a body limit), the event stream excepted")
    func requestsAreBounded() throws {
        // The client's server-sent event stream is open-ended by design (the server ends it); it reads
        // events as they come, and a stalled stream is the server's to end.
        let allowed: Set<String> = ["JuiceClient/Server/CredentialRevocations.swift"]
        var offences: [String] = []
        for (path, text) in try Self.files() where !allowed.contains(path) {
            for (number, line) in Self.code(text).enumerated() where line.contains(".execute(") && !line.contains("boundedExecute(") {
                offences.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offences.isEmpty, "use boundedExecute:\n\(offences.joined(separator: "\n"))")
    }
}
