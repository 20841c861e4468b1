import NIOCore

/// One line a client sent, without its line ending, or word that it was too long.
enum SMTPLine: Sendable, Equatable {
    /// A line (commands, or a line of message text) as bytes: message text may be 8-bit.
    case line([UInt8])
    /// A line over the limit; its bytes were discarded up to the next line feed.
    case overlong
}

/// Splits the byte stream into lines ending in CRLF (a bare LF is accepted too). A line longer than
/// `maximumLength` octets is reported once as ``SMTPLine/overlong`` and skipped, so a client cannot make
/// the server buffer without bound.
struct SMTPLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = SMTPLine

    let maximumLength: Int
    private var discarding = false

    init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > maximumLength + 1 {
                if !discarding { context.fireChannelRead(wrapInboundOut(.overlong)) }
                discarding = true
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            }
            return .needMoreData
        }
        let length = newline - buffer.readerIndex
        guard var bytes = buffer.readBytes(length: length + 1) else { return .needMoreData }
        bytes.removeLast()
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        if discarding {
            discarding = false
            return .continue
        }
        context.fireChannelRead(wrapInboundOut(bytes.count > maximumLength ? .overlong : .line(bytes)))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // A partial last line (the client vanished mid-line) is dropped: it is no command and no complete message.
        while try decode(context: context, buffer: &buffer) == .continue {}
        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        return .needMoreData
    }
}

/// Answers `421` and closes a connection that has been silent for the idle timeout.
final class SMTPIdleCloser: ChannelInboundHandler, Sendable {
    typealias InboundIn = SMTPLine
    typealias InboundOut = SMTPLine
    typealias OutboundOut = ByteBuffer

    let hostname: String

    init(hostname: String) {
        self.hostname = hostname
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        let reply = SMTPReply(421, "4.4.2", "\(hostname) idle for too long, closing the connection")
        let close = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: reply.text))).whenComplete { _ in close.close(promise: nil) }
    }
}
