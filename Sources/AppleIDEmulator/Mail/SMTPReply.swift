/// A reply of the relay: a code, an enhanced status code (RFC 3463) and text, possibly on several lines.
struct SMTPReply: Sendable, Equatable {
    let code: Int
    let lines: [String]

    /// A one-line reply `code status text`.
    init(_ code: Int, _ status: String, _ text: String) {
        self.code = code
        self.lines = [status.isEmpty ? text : status + " " + text]
    }

    /// A multi-line reply (EHLO).
    init(code: Int, lines: [String]) {
        self.code = code
        self.lines = lines
    }

    /// The reply on the wire: `250-first`, …, `250 last`, each ending in CRLF.
    var text: String {
        lines.enumerated().map { index, line in
            "\(code)\(index == lines.count - 1 ? " " : "-")\(line.sanitizedForReply)\r\n"
        }.joined()
    }

    /// The reply as one line of text (for the refusal log).
    var summary: String { "\(code) " + lines.joined(separator: " ") }

    var isPositive: Bool { code < 400 }
}

extension String {
    /// Without CR, LF or other control characters (a reply line must stay one line).
    var sanitizedForReply: String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }
}
