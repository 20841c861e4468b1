import NIOCore

/// Ends conversations that would hold one of the relay's connections for nothing, with `421`: one
/// that lasts longer than the session deadline, and one whose client sends a line it has begun slower
/// than the minimum data rate (one byte a second, say). A client between commands is left to the idle
/// timeout, and one that sends whole lines is never measured.
///
/// It sits first in the pipeline, so it sees the bytes as they arrive.
final class SMTPPaceKeeper: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let hostname: String
    let sessionTimeout: TimeAmount
    let minimumDataRate: Int
    let window: TimeAmount
    /// Whether the last byte received left a line unfinished.
    private var lineUnfinished = false
    private var bytesInWindow = 0
    private var sessionDeadline: Scheduled<Void>?
    private var rateCheck: RepeatedTask?
    private var closing = false

    init(hostname: String, options: SMTPOptions) {
        self.hostname = hostname
        sessionTimeout = TimeAmount(options.sessionTimeout)
        minimumDataRate = options.minimumDataRate
        window = TimeAmount(options.dataRateWindow)
    }

    func channelActive(context: ChannelHandlerContext) {
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        sessionDeadline = context.eventLoop.scheduleTask(in: sessionTimeout) {
            bound.value.handler.end(bound.value.context, "the conversation lasted longer than the relay allows")
        }
        if minimumDataRate > 0 {
            rateCheck = context.eventLoop.scheduleRepeatedTask(initialDelay: window, delay: window) { _ in
                bound.value.handler.checkRate(bound.value.context)
            }
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        bytesInWindow &+= bytes.readableBytes
        if let last = bytes.readableBytesView.last { lineUnfinished = last != UInt8(ascii: "\n") }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopTimers()
        context.fireChannelInactive()
    }

    private func checkRate(_ context: ChannelHandlerContext) {
        let required = Int(Double(minimumDataRate) * Double(window.nanoseconds) / 1e9)
        defer { bytesInWindow = 0 }
        guard lineUnfinished, bytesInWindow < required else { return }
        end(context, "data arrives slower than \(minimumDataRate) octets a second")
    }

    private func end(_ context: ChannelHandlerContext, _ why: String) {
        guard !closing else { return }
        closing = true
        stopTimers()
        let reply = SMTPReply(421, "4.4.2", "\(hostname) \(why), closing the connection")
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: reply.text))).whenComplete { _ in channel.close(promise: nil) }
    }

    private func stopTimers() {
        sessionDeadline?.cancel()
        rateCheck?.cancel()
        sessionDeadline = nil
        rateCheck = nil
    }
}
