import Foundation

/// Writes Juice's mails as RFC 5322 messages: `Date`, `From`, `To`, `Subject` (RFC 2047 encoded
/// when not ASCII), `Message-ID`, `MIME-Version`, a UTF-8 `text/plain` body in quoted-printable,
/// CRLF line endings. Header values never carry CR or LF, whatever the input.
struct MailComposer: Sendable {
    let sender: MailSender
    /// The domain of `Message-ID`s.
    var messageIDDomain: String { sender.address.split(separator: "@").last.map(String.init) ?? "juice.invalid" }

    func compose(to recipient: String, subject: String, body: String, date: Date, messageID: String) -> [UInt8] {
        let fromValue = sender.name.map { Self.encodedPhrase($0) + " <\(sender.address)>" } ?? sender.address
        let headers: [(String, String)] = [
            ("Date", Self.dateFormat(date)),
            ("From", fromValue),
            ("To", Self.headerSafe(recipient)),
            ("Subject", Self.encodedText(subject)),
            ("Message-ID", "<\(messageID)@\(messageIDDomain)>"),
            ("MIME-Version", "1.0"),
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Transfer-Encoding", "quoted-printable"),
        ]
        var text = headers.map { "\($0.0): \($0.1)\r\n" }.joined()
        text += "\r\n"
        text += Self.quotedPrintable(body)
        return Array(text.utf8)
    }

    /// `Mon, 23 Nov 2026 10:07:51 +0000`.
    static func dateFormat(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }

    /// Any control character (CR, LF, …) becomes a space: a header value stays one header.
    static func headerSafe(_ value: String) -> String {
        String(String.UnicodeScalarView(value.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }

    /// Unstructured text (`Subject`): as is when printable ASCII, else RFC 2047 `B` encoded words of
    /// at most 75 characters, folded.
    static func encodedText(_ value: String) -> String {
        let safe = headerSafe(value)
        if safe.unicodeScalars.allSatisfy({ $0.isASCII }), safe.utf8.count <= 900 { return safe }
        return encodedWords(safe)
    }

    /// A display name: quoted when ASCII, encoded words otherwise.
    static func encodedPhrase(_ value: String) -> String {
        let safe = headerSafe(value)
        if safe.unicodeScalars.allSatisfy({ $0.isASCII }) {
            return "\"" + safe.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return encodedWords(safe)
    }

    /// `=?utf-8?B?…?=` words, each holding whole characters (at most 45 octets, 60 base64 characters).
    static func encodedWords(_ value: String) -> String {
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in value {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > 45, !chunk.isEmpty {
                words.append("=?utf-8?B?" + Data(chunk).base64EncodedString() + "?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append("=?utf-8?B?" + Data(chunk).base64EncodedString() + "?=") }
        return words.joined(separator: "\r\n ")
    }

    /// Quoted-printable (RFC 2045): lines of at most 76 characters, CRLF line breaks.
    static func quotedPrintable(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var output = ""
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        for (lineIndex, line) in lines.enumerated() {
            var current = ""
            let bytes = Array(line.utf8)
            for (index, byte) in bytes.enumerated() {
                let isLast = index == bytes.count - 1
                let literal =
                    (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "=")) || ((byte == 32 || byte == 9) && !isLast)
                let piece = literal ? String(UnicodeScalar(byte)) : "=" + String([hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
                if current.count + piece.count > 75 {
                    output += current + "=\r\n"
                    current = ""
                }
                current += piece
            }
            output += current
            if lineIndex < lines.count - 1 { output += "\r\n" }
        }
        return output + "\r\n"
    }
}

/// Who Juice's mail comes from: `mail_from`, `Name <address>` or a bare address.
public struct MailSender: Sendable, Hashable {
    /// The display name, if any.
    public let name: String?
    /// The address (envelope `MAIL FROM` and header `From`).
    public let address: String

    /// Parses `Juice <noreply@example.com>` or `noreply@example.com`; `nil` when it is not one address.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var name: String?
        var address = trimmed
        if let open = trimmed.lastIndex(of: "<"), trimmed.hasSuffix(">") {
            address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
            let display = trimmed[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            name = display.isEmpty ? nil : display
        }
        guard Self.isAddress(address), name.map({ !$0.contains(where: { $0.isNewline || $0 == "<" || $0 == ">" }) }) ?? true else { return nil }
        self.name = name
        self.address = address
    }

    static func isAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), text.utf8.count <= 254 else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F && !"<>()[],;:\\\"".unicodeScalars.contains($0) }
    }
}
