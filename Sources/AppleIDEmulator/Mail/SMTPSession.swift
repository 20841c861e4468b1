import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One SMTP conversation (RFC 5321): EHLO/HELO, MAIL (with SIZE and BODY), RCPT, DATA, RSET, NOOP,
/// QUIT. Each line in gives the replies to send; the relay decides who may send to whom.
///
/// Malformed commands get `500`/`501` and leave the session usable. A message is stored only once
/// its final `.` arrives and it is within the size limit; anything else stores nothing.
struct SMTPSession: Sendable {
    /// What to do after a line.
    struct Output: Sendable {
        var replies: [SMTPReply] = []
        var close = false
    }

    let relay: MailRelay
    let hostname: String
    let maximumMessageSize: Int
    /// Refusals after which the session ends with `421`: each refused `RCPT TO`, and each recipient of a
    /// refused message. Each is one row of the relay's refusal log, so one session writes at most this
    /// many rows and cannot push older refusals out of it.
    let maximumRefusedRecipients: Int
    /// The longest line, in octets without CRLF (RFC 5321 §4.5.3.1.6: 1000 with CRLF).
    static let maximumLineLength = 998
    static let maximumRecipients = 100

    private var greeted = false
    private var refusedRecipients = 0
    private var envelopeFrom: String?
    private var recipients: [MailRelay.Recipient] = []
    private var message: [UInt8]?
    private var messageTooLarge = false
    private var lineTooLong = false

    init(relay: MailRelay, hostname: String, maximumMessageSize: Int, maximumRefusedRecipients: Int) {
        self.relay = relay
        self.hostname = hostname
        self.maximumMessageSize = maximumMessageSize
        self.maximumRefusedRecipients = maximumRefusedRecipients
    }

    var greeting: SMTPReply { SMTPReply(220, "", "\(hostname) ESMTP Apple ID emulator private email relay") }

    /// Whether the session is inside `DATA` (a client that vanishes now leaves nothing stored).
    var isReceivingMessage: Bool { message != nil }

    mutating func receive(_ line: SMTPLine) async -> Output {
        if message != nil { return await receiveMessageLine(line) }
        guard case .line(let bytes) = line else {
            return Output(replies: [SMTPReply(500, "5.5.6", "line too long (at most \(Self.maximumLineLength) octets)")])
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let verb = text.prefix { $0 != " " }.uppercased()
        let argument = text.dropFirst(verb.count).trimmingHorizontalSpace()
        do {
            return try await command(verb, argument)
        } catch {
            return Output(replies: [SMTPReply(451, "4.3.0", "local error in processing; try again later")])
        }
    }

    private mutating func command(_ verb: String, _ argument: String) async throws -> Output {
        switch verb {
        case "EHLO", "HELO":
            guard !argument.isEmpty, !argument.contains(" ") else {
                return Output(replies: [SMTPReply(501, "5.5.4", "\(verb) needs the client's domain or address literal")])
            }
            greeted = true
            reset()
            if verb == "HELO" { return Output(replies: [SMTPReply(250, "", "\(hostname) greets \(argument)")]) }
            return Output(replies: [
                SMTPReply(
                    code: 250, lines: ["\(hostname) greets \(argument)", "SIZE \(maximumMessageSize)", "8BITMIME", "ENHANCEDSTATUSCODES"])
            ])
        case "MAIL":
            return Output(replies: [mail(argument)])
        case "RCPT":
            let reply = try await recipient(argument)
            guard !reply.isPositive else { return Output(replies: [reply]) }
            return counted(reply, refusals: 1)
        case "DATA":
            guard argument.isEmpty else { return Output(replies: [SMTPReply(501, "5.5.4", "DATA takes no argument")]) }
            guard envelopeFrom != nil else { return Output(replies: [SMTPReply(503, "5.5.1", "MAIL FROM first")]) }
            guard !recipients.isEmpty else { return Output(replies: [SMTPReply(554, "5.5.1", "no valid recipients")]) }
            message = []
            messageTooLarge = false
            lineTooLong = false
            return Output(replies: [SMTPReply(354, "", "end data with <CR><LF>.<CR><LF>")])
        case "RSET":
            guard argument.isEmpty else { return Output(replies: [SMTPReply(501, "5.5.4", "RSET takes no argument")]) }
            reset()
            return Output(replies: [SMTPReply(250, "2.0.0", "OK")])
        case "NOOP":
            return Output(replies: [SMTPReply(250, "2.0.0", "OK")])
        case "QUIT":
            return Output(replies: [SMTPReply(221, "2.0.0", "\(hostname) closing connection")], close: true)
        case "VRFY", "EXPN", "HELP", "ETRN":
            return Output(replies: [SMTPReply(502, "5.5.1", "\(verb) is not implemented")])
        case "":
            return Output(replies: [SMTPReply(500, "5.5.2", "empty command")])
        default:
            return Output(replies: [SMTPReply(500, "5.5.2", "command not recognized: \(verb.prefix(16))")])
        }
    }

    private mutating func mail(_ argument: String) -> SMTPReply {
        guard greeted else { return SMTPReply(503, "5.5.1", "EHLO or HELO first") }
        guard envelopeFrom == nil else { return SMTPReply(503, "5.5.1", "a mail transaction is already open; RSET first") }
        guard let (path, parameters) = Self.path(argument, keyword: "FROM") else {
            return SMTPReply(501, "5.5.4", "syntax: MAIL FROM:<address> [SIZE=n] [BODY=7BIT|8BITMIME]")
        }
        guard path.isEmpty || MailboxSyntax.isValid(path) else { return SMTPReply(501, "5.1.7", "bad sender address syntax") }
        for parameter in parameters {
            let pieces = parameter.split(separator: "=", maxSplits: 1).map(String.init)
            switch (pieces[0].uppercased(), pieces.count == 2 ? pieces[1] : nil) {
            case ("SIZE", let value?):
                guard let size = Int(value), size >= 0 else { return SMTPReply(501, "5.5.4", "SIZE must be a number of octets") }
                guard size <= maximumMessageSize else {
                    return SMTPReply(552, "5.3.4", "message size \(size) exceeds the limit of \(maximumMessageSize) octets")
                }
            case ("BODY", let value?) where ["7BIT", "8BITMIME"].contains(value.uppercased()):
                continue
            default:
                return SMTPReply(555, "5.5.4", "MAIL parameter not recognized: \(pieces[0].prefix(16))")
            }
        }
        envelopeFrom = path.lowercased()
        return SMTPReply(250, "2.1.0", "sender OK")
    }

    private mutating func recipient(_ argument: String) async throws -> SMTPReply {
        guard let envelopeFrom else { return SMTPReply(503, "5.5.1", "MAIL FROM first") }
        guard let (path, parameters) = Self.path(argument, keyword: "TO") else {
            return SMTPReply(501, "5.5.4", "syntax: RCPT TO:<address>")
        }
        guard parameters.isEmpty else { return SMTPReply(555, "5.5.4", "RCPT parameters are not supported") }
        guard MailboxSyntax.isValid(path) else { return SMTPReply(501, "5.1.3", "bad recipient address syntax") }
        guard recipients.count < Self.maximumRecipients else { return SMTPReply(452, "4.5.3", "too many recipients") }
        switch try await relay.recipient(path, envelopeFrom: envelopeFrom) {
        case .accepted(let recipient):
            if !recipients.contains(recipient) { recipients.append(recipient) }
            return SMTPReply(250, "2.1.5", "recipient OK")
        case .refused(let reply):
            return reply
        }
    }

    private mutating func receiveMessageLine(_ line: SMTPLine) async -> Output {
        guard case .line(let bytes) = line else {
            lineTooLong = true
            message = []
            return Output()
        }
        if bytes == [UInt8(ascii: ".")] { return await endOfMessage() }
        let content = bytes.first == UInt8(ascii: ".") ? Array(bytes.dropFirst()) : bytes
        guard !messageTooLarge, !lineTooLong else { return Output() }
        if (message?.count ?? 0) + content.count + 2 > maximumMessageSize {
            messageTooLarge = true
            message = []  // nothing half-stored: the text read so far is dropped
            return Output()
        }
        message?.append(contentsOf: content)
        message?.append(contentsOf: [13, 10])
        return Output()
    }

    /// Refusal-log rows this session may still write.
    private var refusalsLeft: Int { max(0, maximumRefusedRecipients - refusedRecipients) }

    private mutating func endOfMessage() async -> Output {
        let text = message ?? []
        let sender = envelopeFrom ?? ""
        let accepted = recipients
        let tooLarge = messageTooLarge
        let tooLong = lineTooLong
        message = nil
        reset()
        do {
            if tooLarge || tooLong {
                let reply =
                    tooLarge
                    ? SMTPReply(552, "5.3.4", "message exceeds the limit of \(maximumMessageSize) octets; nothing was delivered")
                    : SMTPReply(500, "5.5.6", "a message line exceeds \(Self.maximumLineLength) octets; nothing was delivered")
                try await relay.logRefusal(
                    reply, reason: tooLarge ? "message too large" : "line too long", envelopeFrom: sender, recipients: accepted,
                    loggingAtMost: refusalsLeft)
                return counted(reply, refusals: accepted.count)
            }
            let reply = try await relay.deliver(text, envelopeFrom: sender, to: accepted, loggingAtMost: refusalsLeft)
            return counted(reply, refusals: accepted.count)
        } catch {
            return Output(replies: [SMTPReply(451, "4.3.0", "local error in processing; nothing was delivered, try again later")])
        }
    }

    /// `reply`, and when it is a refusal, `refusals` more counted against the session's limit: at the limit
    /// the session is told `421` and closed.
    private mutating func counted(_ reply: SMTPReply, refusals: Int) -> Output {
        guard !reply.isPositive else { return Output(replies: [reply]) }
        refusedRecipients += refusals
        guard refusedRecipients >= maximumRefusedRecipients else { return Output(replies: [reply]) }
        let closing = SMTPReply(421, "4.7.0", "\(hostname) too many refused recipients in one session, closing the connection")
        return Output(replies: [reply, closing], close: true)
    }

    private mutating func reset() {
        envelopeFrom = nil
        recipients = []
    }

    /// Parses `FROM:<path> params` / `TO:<path> params` (a space after the colon is tolerated).
    static func path(_ argument: String, keyword: String) -> (String, [String])? {
        guard argument.uppercased().hasPrefix(keyword + ":") else { return nil }
        let rest = argument.dropFirst(keyword.count + 1).trimmingHorizontalSpace()
        guard rest.hasPrefix("<"), let close = rest.firstIndex(of: ">") else { return nil }
        var path = String(rest[rest.index(after: rest.startIndex)..<close])
        // A source route (`@a,@b:user@c`) is accepted and ignored, as RFC 5321 asks.
        if path.hasPrefix("@"), let colon = path.firstIndex(of: ":") { path = String(path[path.index(after: colon)...]) }
        let parameters = rest[rest.index(after: close)...].split(separator: " ").map(String.init)
        return (path, parameters)
    }
}
