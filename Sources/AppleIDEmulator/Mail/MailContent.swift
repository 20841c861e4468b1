import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the inbox shows of a message: its headers, the `From` addresses, the decoded subject, and a
/// text body (the `text/plain` part, else the `text/html` part shown as text).
///
/// Understands RFC 5322 headers (unfolded), RFC 2047 encoded words, `multipart/*`, and the
/// `base64`, `quoted-printable`, `7bit` and `8bit` transfer encodings; anything else is kept as text.
struct MailContent: Sendable {
    let headers: [(name: String, value: String)]
    let subject: String
    /// Every mailbox the message claims to come from, or why the relay cannot trust its `From`: there
    /// is none, there are several `From` headers (RFC 5322 §3.6 allows one), or it cannot be read whole.
    let from: Result<[String], MailboxListParser.Failure>
    let body: String
    /// `text/plain` or `text/html`.
    let bodyType: String

    init(parsing raw: [UInt8]) {
        let (headers, bodyBytes) = Self.split(raw)
        self.headers = headers
        subject = Self.decodeWords(Self.header("subject", in: headers) ?? "")
        from = Self.fromAddresses(in: headers)
        let part = Self.textPart(headers: headers, body: bodyBytes, depth: 0) ?? (String(decoding: bodyBytes, as: UTF8.self), "text/plain")
        body = part.text
        bodyType = part.type
    }

    /// The headers as `Name: value` lines.
    var headerText: String {
        headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    // MARK: - Structure

    static func split(_ raw: [UInt8]) -> ([(name: String, value: String)], [UInt8]) {
        var lines: [[UInt8]] = []
        var index = raw.startIndex
        var current: [UInt8] = []
        var bodyStart = raw.endIndex
        while index < raw.endIndex {
            let byte = raw[index]
            index += 1
            if byte == UInt8(ascii: "\n") {
                if current.last == UInt8(ascii: "\r") { current.removeLast() }
                if current.isEmpty {
                    bodyStart = index
                    break
                }
                lines.append(current)
                current = []
            } else {
                current.append(byte)
            }
        }
        if !current.isEmpty { lines.append(current) }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            let text = String(decoding: line, as: UTF8.self)
            if let first = text.first, first == " " || first == "\t", !headers.isEmpty {
                headers[headers.count - 1].value += " " + text.trimmingHorizontalSpace()
            } else if let colon = text.firstIndex(of: ":") {
                headers.append(
                    (
                        String(text[..<colon]).trimmingHorizontalSpace(),
                        String(text[text.index(after: colon)...]).trimmingHorizontalSpace()
                    ))
            }
        }
        return (headers, Array(raw[bodyStart...]))
    }

    static func header(_ name: String, in headers: [(name: String, value: String)]) -> String? {
        headers.first { $0.name.lowercased() == name }?.value
    }

    /// The text of a part: for `multipart/*` the first `text/plain` part, else the first `text/html`.
    static func textPart(headers: [(name: String, value: String)], body: [UInt8], depth: Int) -> (text: String, type: String)? {
        let (type, parameters) = contentType(header("content-type", in: headers) ?? "text/plain")
        if type.hasPrefix("multipart/"), let boundary = parameters["boundary"], depth < 8 {
            let parts = multipartParts(body, boundary: boundary).map { split($0) }
            let decoded = parts.compactMap { textPart(headers: $0.0, body: $0.1, depth: depth + 1) }
            return decoded.first { $0.type == "text/plain" } ?? decoded.first
        }
        guard type == "text/plain" || type == "text/html" else { return nil }
        let bytes = decodeTransfer(body, encoding: header("content-transfer-encoding", in: headers)?.lowercased() ?? "7bit")
        return (decodeCharset(bytes, charset: parameters["charset"] ?? "utf-8"), type)
    }

    static func contentType(_ value: String) -> (String, [String: String]) {
        let pieces = value.split(separator: ";").map { $0.trimmingHorizontalSpace() }
        var parameters: [String: String] = [:]
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            var parameterValue = String(piece[piece.index(after: equals)...]).trimmingHorizontalSpace()
            if parameterValue.count >= 2, parameterValue.hasPrefix("\""), parameterValue.hasSuffix("\"") {
                parameterValue = String(parameterValue.dropFirst().dropLast())
            }
            parameters[piece[..<equals].trimmingHorizontalSpace().lowercased()] = parameterValue
        }
        return ((pieces.first ?? "text/plain").lowercased(), parameters)
    }

    static func multipartParts(_ body: [UInt8], boundary: String) -> [[UInt8]] {
        let text = String(decoding: body, as: UTF8.self).replacing("\r\n", with: "\n")
        var parts: [[UInt8]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("--" + boundary) {
                if let current { parts.append(Array(current.joined(separator: "\r\n").utf8)) }
                if line.hasPrefix("--" + boundary + "--") { return parts }
                current = []
            } else {
                current?.append(String(line))
            }
        }
        if let current { parts.append(Array(current.joined(separator: "\r\n").utf8)) }
        return parts
    }

    // MARK: - Encodings

    static func decodeTransfer(_ bytes: [UInt8], encoding: String) -> [UInt8] {
        switch encoding {
        case "base64":
            return Data(base64Encoded: String(decoding: bytes, as: UTF8.self), options: .ignoreUnknownCharacters).map(Array.init) ?? bytes
        case "quoted-printable":
            return decodeQuotedPrintable(bytes, underscoreIsSpace: false)
        default:
            return bytes
        }
    }

    static func decodeQuotedPrintable(_ bytes: [UInt8], underscoreIsSpace: Bool) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "=") {
                if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\r"), bytes[index + 2] == UInt8(ascii: "\n") {
                    index += 3  // soft line break
                    continue
                }
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
                    index += 2
                    continue
                }
                if index + 2 < bytes.count, let high = bytes[index + 1].hexDigitValue, let low = bytes[index + 2].hexDigitValue {
                    output.append(high << 4 | low)
                    index += 3
                    continue
                }
            }
            output.append(underscoreIsSpace && byte == UInt8(ascii: "_") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return output
    }

    static func decodeCharset(_ bytes: [UInt8], charset: String) -> String {
        switch charset.lowercased() {
        case "iso-8859-1", "latin1", "windows-1252":
            String(bytes.map { Character(Unicode.Scalar($0)) })
        default:
            String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Decodes RFC 2047 encoded words (`=?utf-8?B?…?=`, `=?utf-8?Q?…?=`); whitespace between two
    /// encoded words is dropped, as the RFC says.
    static func decodeWords(_ value: String) -> String {
        var result = ""
        var rest = Substring(value)
        var lastWasEncoded = false
        while let start = rest.firstRange(of: "=?") {
            let before = rest[..<start.lowerBound]
            guard let decoded = encodedWord(rest[start.lowerBound...]) else {
                result += before + "=?"
                rest = rest[start.upperBound...]
                lastWasEncoded = false
                continue
            }
            if !(lastWasEncoded && before.allSatisfy(\.isWhitespace)) { result += before }
            result += decoded.text
            rest = decoded.rest
            lastWasEncoded = true
        }
        return result + rest
    }

    private static func encodedWord(_ text: Substring) -> (text: String, rest: Substring)? {
        let parts = text.dropFirst(2).split(separator: "?", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[3].hasPrefix("=") else { return nil }
        let charset = String(parts[0]).split(separator: "*").first.map(String.init) ?? "utf-8"
        let payload = Array(parts[2].utf8)
        let bytes: [UInt8]
        switch parts[1].uppercased() {
        case "B":
            guard let data = Data(base64Encoded: String(decoding: payload, as: UTF8.self)) else { return nil }
            bytes = Array(data)
        case "Q":
            bytes = decodeQuotedPrintable(payload, underscoreIsSpace: true)
        default:
            return nil
        }
        return (decodeCharset(bytes, charset: charset), parts[3].dropFirst())
    }

    /// The mailboxes of the one `From` header.
    static func fromAddresses(in headers: [(name: String, value: String)]) -> Result<[String], MailboxListParser.Failure> {
        let values = headers.filter { $0.name.lowercased() == "from" }.map(\.value)
        guard values.count == 1, let value = values.first else {
            return .failure(MailboxListParser.Failure(reason: values.isEmpty ? "there is no From header" : "there are \(values.count) From headers"))
        }
        return Result { () throws(MailboxListParser.Failure) in try MailboxListParser.addresses(in: value) }
    }
}
