import Foundation
import Synchronization

/// The one JSON line `juice emulator --ready-json` prints on stdout once the HTTP server (and the
/// private email relay, when it runs) accept connections, so that a script or a test fixture that
/// started the emulator on port 0 learns where it is without polling or guessing:
///
/// ```json
/// {"ready":true,"url":"http://127.0.0.1:41234","issuer":"http://127.0.0.1:41234","port":41234,"smtp_port":null}
/// ```
///
/// `url` and `issuer` are what the emulator itself uses (`--public-url` and `--issuer` when given).
final class EmulatorReadyLine: Sendable {
    private struct Bound {
        var http: Int?
        var smtp: Int?
        var printed = false
    }

    private let host: String
    private let publicURL: String?
    private let issuer: String?
    private let expectsSMTP: Bool
    private let bound = Mutex(Bound())

    /// A line for an emulator on `host`, printed once HTTP and, when `expectsSMTP`, SMTP are bound.
    init(host: String, publicURL: String?, issuer: String?, expectsSMTP: Bool) {
        self.host = host
        self.publicURL = publicURL
        self.issuer = issuer
        self.expectsSMTP = expectsSMTP
    }

    /// The HTTP server is bound to `port`.
    func httpListening(_ port: Int) async {
        printIfComplete { $0.http = port }
    }

    /// The private email relay is bound to `port`.
    func smtpListening(_ port: Int) async {
        printIfComplete { $0.smtp = port }
    }

    private func printIfComplete(_ record: (inout Bound) -> Void) {
        let line: String? = bound.withLock { state in
            record(&state)
            guard !state.printed, let http = state.http, !expectsSMTP || state.smtp != nil else { return nil }
            state.printed = true
            return Self.text(host: host, publicURL: publicURL, issuer: issuer, port: http, smtpPort: state.smtp)
        }
        if let line { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
    }

    /// The JSON line (without its newline) for the bound ports.
    static func text(host: String, publicURL: String?, issuer: String?, port: Int, smtpPort: Int?) -> String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let url = publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? "http://\(shownHost):\(port)"
        let fields: [String: Any] = [
            "ready": true, "url": url, "issuer": issuer ?? url, "port": port, "smtp_port": smtpPort.map { $0 as Any } ?? NSNull(),
        ]
        let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
