import Logging
import NIOCore
import NIOHTTP1

/// Reads one HTTP request on one loopback connection, answers it, and closes the connection: the
/// page and the callback when the request is the sign-in's response, an error status otherwise.
final class LoopbackRequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let exchange: LoopbackExchange
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()
    private var answered = false

    init(exchange: LoopbackExchange) {
        self.exchange = exchange
    }

    func channelActive(context: ChannelHandlerContext) {
        if !exchange.register(context.channel) { context.close(promise: nil) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        exchange.unregister(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        do throws(LoopbackExchange.Refusal) {
            switch unwrapInboundIn(data) {
            case .head(let requestHead):
                try exchange.check(requestHead)
                head = requestHead
            case .body(var chunk):
                guard body.readableBytes + chunk.readableBytes <= exchange.maximumRequestSize else {
                    throw LoopbackExchange.Refusal(status: .payloadTooLarge, message: "The request is too large.")
                }
                body.writeBuffer(&chunk)
            case .end:
                guard let head else { return }
                let callback = try exchange.callback(head, body: body)
                guard exchange.claim() else {
                    throw LoopbackExchange.Refusal(status: .conflict, message: "Sign-in already received a response.")
                }
                respond(context, status: .ok, contentType: "text/html; charset=utf-8", body: LoopbackExchange.page, then: callback)
            }
        } catch {
            exchange.logger.debug("loopback receiver refused a request", metadata: ["status": "\(error.status.code)"])
            respond(context, status: error.status, contentType: "text/plain; charset=utf-8", body: error.message + "\n", then: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        exchange.logger.debug("loopback connection failed", metadata: ["error": "\(type(of: error))"])
        context.close(promise: nil)
    }

    /// Writes the answer, closes the connection, then delivers `callback` if any.
    private func respond(
        _ context: ChannelHandlerContext, status: HTTPResponseStatus, contentType: String, body: String, then callback: LoopbackCallback?
    ) {
        answered = true
        let bytes = ByteBuffer(string: body)
        let headers = HTTPHeaders([
            ("Content-Type", contentType),
            ("Content-Length", "\(bytes.readableBytes)"),
            ("Connection", "close"),
            ("Cache-Control", "no-store"),
            ("Referrer-Policy", "no-referrer"),
            ("X-Content-Type-Options", "nosniff"),
            ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'"),
        ])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(bytes))), promise: nil)
        let channel = context.channel
        let exchange = self.exchange
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            channel.close(promise: nil)
            if let callback { exchange.deliver(callback) }
        }
    }
}
