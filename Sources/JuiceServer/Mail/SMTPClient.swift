import Foundation
import NIOCore
import NIOPosix

/// A small SMTP client (RFC 5321) for Juice's own mail: EHLO (HELO when refused), MAIL FROM with
/// `SIZE` when the server advertises it, RCPT TO, DATA with dot-stuffing, QUIT. Plain TCP only.
///
/// Every step has the client's deadline; a `5xx` is a permanent refusal, a `4xx`, a broken
/// connection or a timeout is worth another try.
struct SMTPClient: Sendable {
    let host: String
    let port: Int
    /// The name this client gives in EHLO.
    let heloName: String
    /// The deadline of one whole delivery.
    let timeout: Duration

    /// Delivers `message` (CRLF lines, not yet dot-stuffed) from `sender` to `recipient`.
    func send(_ message: [UInt8], from sender: String, to recipient: String) async throws(SMTPDeliveryError) {
        do {
            try await withDeadline(timeout) { try await self.converse(message, from: sender, to: recipient) }
        } catch let error as SMTPDeliveryError {
            throw error
        } catch is DeadlineExceeded {
            throw .unreachable("no answer within \(timeout)")
        } catch {
            throw .unreachable("cannot reach \(host):\(port) (\(type(of: error)))")
        }
    }

    private func converse(_ message: [UInt8], from sender: String, to recipient: String) async throws {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(SMTPReplyLineDecoder()))
                    return try NIOAsyncChannel<String, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        try await channel.executeThenClose { inbound, outbound in
            var replies = SMTPReplyReader(lines: inbound.makeAsyncIterator())
            try await replies.expect(220, during: "greeting")
            try await outbound.write(ByteBuffer(string: "EHLO \(heloName)\r\n"))
            var ehlo = try await replies.next()
            var extensions: [String] = []
            if ehlo.code == 250 {
                extensions = ehlo.lines.dropFirst().map { $0.uppercased() }
            } else {
                try await outbound.write(ByteBuffer(string: "HELO \(heloName)\r\n"))
                ehlo = try await replies.next()
                try ehlo.require(250, during: "HELO")
            }
            let size = extensions.contains { $0 == "SIZE" || $0.hasPrefix("SIZE ") } ? " SIZE=\(message.count)" : ""
            try await outbound.write(ByteBuffer(string: "MAIL FROM:<\(sender)>\(size)\r\n"))
            try await replies.expect(250, during: "MAIL FROM")
            try await outbound.write(ByteBuffer(string: "RCPT TO:<\(recipient)>\r\n"))
            let rcpt = try await replies.next()
            guard rcpt.code == 250 || rcpt.code == 251 else { throw rcpt.failure(during: "RCPT TO") }
            try await outbound.write(ByteBuffer(string: "DATA\r\n"))
            try await replies.expect(354, during: "DATA")
            try await outbound.write(ByteBuffer(bytes: Self.dotStuffed(message)))
            try await replies.expect(250, during: "end of DATA")
            try? await outbound.write(ByteBuffer(string: "QUIT\r\n"))
            _ = try? await replies.next()
        }
    }

    /// The message as DATA sends it: CRLF line endings, a `.` doubled at the start of a line, and
    /// the terminating `CRLF.CRLF`.
    static func dotStuffed(_ message: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(message.count + 64)
        var atLineStart = true
        var previous: UInt8 = 0
        for byte in message {
            if byte == UInt8(ascii: "\n"), previous != UInt8(ascii: "\r") { output.append(UInt8(ascii: "\r")) }
            if atLineStart, byte == UInt8(ascii: ".") { output.append(UInt8(ascii: ".")) }
            output.append(byte)
            atLineStart = byte == UInt8(ascii: "\n")
            previous = byte
        }
        if !atLineStart { output.append(contentsOf: [13, 10]) }
        output.append(contentsOf: Array(".\r\n".utf8))
        return output
    }
}

/// Why a delivery did not happen.
enum SMTPDeliveryError: Error, Sendable, Equatable {
    /// The server refused for good (`5xx`): recorded, not retried.
    case refused(String)
    /// The server asked to try later (`4xx`).
    case deferred(String)
    /// No connection, no answer in time, or an answer that is not SMTP.
    case unreachable(String)

    /// The reply or cause (never message content or credentials).
    var reason: String {
        switch self {
        case .refused(let reason), .deferred(let reason), .unreachable(let reason): reason
        }
    }

    var isPermanent: Bool {
        if case .refused = self { return true }
        return false
    }
}

/// One SMTP reply: its code and text lines.
struct SMTPReplyMessage: Sendable {
    let code: Int
    let lines: [String]

    func require(_ expected: Int, during step: String) throws(SMTPDeliveryError) {
        guard code == expected else { throw failure(during: step) }
    }

    func failure(during step: String) -> SMTPDeliveryError {
        let text = "\(step): \(code) \(lines.joined(separator: " ").prefix(300))"
        switch code {
        case 500..<600: return .refused(text)
        case 400..<500: return .deferred(text)
        default: return .unreachable(text)
        }
    }
}

/// Reads whole replies (`250-…` continuation lines up to `250 …`) from the reply lines.
struct SMTPReplyReader {
    var lines: NIOAsyncChannelInboundStream<String>.AsyncIterator

    mutating func next() async throws -> SMTPReplyMessage {
        var texts: [String] = []
        var code: Int?
        while true {
            guard let line = try await lines.next() else { throw SMTPDeliveryError.unreachable("the server closed the connection") }
            let bytes = Array(line.utf8)
            guard bytes.count >= 3, let lineCode = Int(String(decoding: bytes[0..<3], as: UTF8.self)), (200...599).contains(lineCode),
                bytes.count == 3 || bytes[3] == UInt8(ascii: " ") || bytes[3] == UInt8(ascii: "-")
            else { throw SMTPDeliveryError.unreachable("the server's answer is not an SMTP reply") }
            if let code, code != lineCode { throw SMTPDeliveryError.unreachable("the server mixed reply codes in one reply") }
            code = lineCode
            texts.append(bytes.count > 4 ? String(line.dropFirst(4)) : "")
            if bytes.count == 3 || bytes[3] == UInt8(ascii: " ") { return SMTPReplyMessage(code: lineCode, lines: texts) }
            guard texts.count < 100 else { throw SMTPDeliveryError.unreachable("the server's reply is too long") }
        }
    }

    mutating func expect(_ code: Int, during step: String) async throws {
        try await next().require(code, during: step)
    }
}

/// Splits replies into lines (CRLF or LF); a line over 2048 octets is a protocol error.
struct SMTPReplyLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = String

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            guard buffer.readableBytes <= 2048 else { throw SMTPDeliveryError.unreachable("the server sent an overlong line") }
            return .needMoreData
        }
        guard var bytes = buffer.readBytes(length: newline - buffer.readerIndex + 1) else { return .needMoreData }
        bytes.removeLast()
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard bytes.count <= 2048 else { throw SMTPDeliveryError.unreachable("the server sent an overlong line") }
        context.fireChannelRead(wrapInboundOut(String(decoding: bytes, as: UTF8.self)))
        return .continue
    }
}

/// Thrown by ``withDeadline(_:_:)`` when the time is up.
struct DeadlineExceeded: Error {}

/// Runs `body`, cancelling it when `duration` passes first.
func withDeadline<Result: Sendable>(_ duration: Duration, _ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
    try await withThrowingTaskGroup(of: Result?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: duration)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let result = first else { throw DeadlineExceeded() }
        return result
    }
}
