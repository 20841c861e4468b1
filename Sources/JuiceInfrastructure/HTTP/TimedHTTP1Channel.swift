import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1.1 channel with read deadlines in front of it
/// (``RequestReadDeadlineHandler``): the idle timeout is Hummingbird's own, the head and body
/// deadlines are the handler's.
package struct TimedHTTP1Channel: ServerChildChannel {
    package typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let headTimeout: TimeAmount
    let bodyTimeout: TimeAmount

    package func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let (headTimeout, bodyTimeout) = (self.headTimeout, self.bodyTimeout)
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(RequestReadDeadlineHandler(headTimeout: headTimeout, bodyTimeout: bodyTimeout))
        }.flatMap { [http1] in
            http1.setup(channel: channel, logger: logger)
        }
    }

    package func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 that closes idle connections after `idle`, and connections whose request head takes
    /// longer than `head` or whose body takes longer than `body` to arrive.
    package static func http1(idle: Duration, head: Duration, body: Duration) -> HTTPServerBuilder {
        .init { responder in
            TimedHTTP1Channel(
                http1: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: TimeAmount(idle))),
                headTimeout: TimeAmount(head), bodyTimeout: TimeAmount(body)
            )
        }
    }
}
