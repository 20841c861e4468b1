import NIOCore

/// Closes a connection whose request head, or request body, does not arrive within its deadline.
///
/// It sits first in the pipeline and reads raw bytes: the head's deadline starts at the first byte of
/// a request and ends at the blank line that closes the head (a client trickling header bytes is not
/// given more time by each byte); the body's deadline starts there and ends when `Content-Length`
/// bytes have arrived (a chunked body's ends when the server starts answering). Waiting between
/// requests is Hummingbird's idle timeout, not this handler's concern.
package final class RequestReadDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    package typealias InboundIn = ByteBuffer
    package typealias InboundOut = ByteBuffer
    package typealias OutboundIn = IOData
    package typealias OutboundOut = IOData

    private enum State {
        /// Between requests.
        case waiting
        /// Reading a request head.
        case head
        /// Reading a body of known length: the bytes still due.
        case body(remaining: Int)
        /// Reading a chunked body (until the server answers).
        case chunkedBody
    }

    /// A head longer than this is not kept for parsing (the HTTP decoder refuses it anyway).
    private static let maximumKeptHead = 96 * 1024

    private let headTimeout: TimeAmount
    private let bodyTimeout: TimeAmount
    private var state = State.waiting
    private var head: [UInt8] = []
    private var lastFour: UInt32 = 0
    private var deadline: Scheduled<Void>?

    /// - Parameters:
    ///   - headTimeout: From a request's first byte to the end of its head.
    ///   - bodyTimeout: From the end of the head to the last byte of the body.
    package init(headTimeout: TimeAmount, bodyTimeout: TimeAmount) {
        self.headTimeout = headTimeout
        self.bodyTimeout = bodyTimeout
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let bytes = buffer.readableBytesView
        var index = bytes.startIndex
        while index < bytes.endIndex {
            switch state {
            case .waiting:
                // Blank lines before a request are allowed (RFC 9112 §2.2) and start nothing.
                if bytes[index] == 0x0D || bytes[index] == 0x0A {
                    index += 1
                    continue
                }
                state = .head
                head.removeAll(keepingCapacity: true)
                lastFour = 0
                arm(headTimeout, context: context)
            case .head:
                let byte = bytes[index]
                index += 1
                if head.count < Self.maximumKeptHead { head.append(byte) }
                lastFour = lastFour << 8 | UInt32(byte)
                if lastFour == 0x0D0A_0D0A { headEnded(context: context) }
            case .body(let remaining):
                let taken = min(remaining, bytes.endIndex - index)
                index += taken
                if taken == remaining {
                    state = .waiting
                    disarm()
                } else {
                    state = .body(remaining: remaining - taken)
                }
            case .chunkedBody:
                index = bytes.endIndex
            }
        }
        context.fireChannelRead(data)
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .chunkedBody = state {
            state = .waiting
            disarm()
        }
        context.write(data, promise: promise)
    }

    package func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    private func headEnded(context: ChannelHandlerContext) {
        let (length, chunked) = Self.bodyFraming(head)
        if chunked {
            state = .chunkedBody
            arm(bodyTimeout, context: context)
        } else if length > 0 {
            state = .body(remaining: length)
            arm(bodyTimeout, context: context)
        } else {
            state = .waiting
            disarm()
        }
    }

    private func arm(_ timeout: TimeAmount, context: ChannelHandlerContext) {
        disarm()
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [context] in
            context.close(promise: nil)
        }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }

    /// The body's `Content-Length` (0 when absent or unreadable: the decoder judges it) and whether
    /// it is chunked, read from a head's header lines. Every request's head passes here, so header names
    /// are compared as bytes; only the two values that matter become strings.
    static func bodyFraming(_ head: [UInt8]) -> (length: Int, chunked: Bool) {
        var length = 0
        var chunked = false
        for line in head.split(separator: 0x0A) {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let name = line[line.startIndex..<colon]
            if name.isASCIICaseInsensitive(Self.contentLength) {
                if let number = Int(String(decoding: line[(colon + 1)...].trimmingASCIISpaces(), as: UTF8.self)), number >= 0 {
                    length = number
                }
            } else if name.isASCIICaseInsensitive(Self.transferEncoding) {
                let value = String(decoding: line[(colon + 1)...], as: UTF8.self)
                if value.lowercased().contains("chunked") { chunked = true }
            }
        }
        return (length, chunked)
    }

    private static let contentLength = Array("content-length".utf8)
    private static let transferEncoding = Array("transfer-encoding".utf8)
}

extension ArraySlice<UInt8> {
    /// Whether these bytes are `lowercase` (ASCII lowercase letters and punctuation) in any ASCII case.
    fileprivate func isASCIICaseInsensitive(_ lowercase: [UInt8]) -> Bool {
        guard count == lowercase.count else { return false }
        // Setting bit 0x20 lowercases an ASCII letter; any other byte must be equal as it is (`\r` | 0x20 is `-`).
        return zip(self, lowercase).allSatisfy { byte, expected in
            (0x61...0x7A).contains(expected) ? byte | 0x20 == expected : byte == expected
        }
    }

    /// Without spaces, tabs and carriage returns at either end.
    fileprivate func trimmingASCIISpaces() -> ArraySlice<UInt8> {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return [] }
        return self[first...last]
    }
}
