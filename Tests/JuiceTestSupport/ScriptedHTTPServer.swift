import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A raw HTTP/1.1 endpoint on a free loopback port whose answer is scripted byte for byte: a redirect,
/// an oversized body, or a chunked `200` that then trickles one byte per interval for as long as the
/// connection stays open (a hostile or broken peer no framework would play). Counts the requests it
/// receives (one per connection).
package final class ScriptedHTTPServer: Sendable {
    /// What the server answers to every request.
    package enum Script: Sendable {
        /// `307` to `location`, no body.
        case redirect(status: Int = 307, location: String)
        /// `200` with a body of `size` bytes.
        case large(size: Int)
        /// `200` with a chunked body that sends one byte every `interval`, never ending.
        case trickle(interval: Duration)
        /// `status` with an empty body.
        case plain(status: Int)
        /// `status` with `body` as `application/json` (a server's error answer, say).
        case json(status: Int, body: String)
    }

    private let channel: any Channel
    private let received = NIOLockedValueBox(0)
    private let connections: NIOLockedValueBox<[any Channel]>
    /// The port it listens on (127.0.0.1).
    package let port: Int

    /// `http://127.0.0.1:PORT` + `path`.
    package func url(_ path: String = "/") -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Requests received so far.
    package var requests: Int { received.withLockedValue { $0 } }

    private init(channel: any Channel, port: Int, connections: NIOLockedValueBox<[any Channel]>) {
        self.channel = channel
        self.port = port
        self.connections = connections
    }

    /// Closes every connection accepted so far (a trickle ends with its connection).
    package func closeConnections() async {
        for connection in connections.withLockedValue({ $0 }) {
            try? await connection.close()
        }
    }

    /// Runs a server answering with `script` for the duration of `body`.
    package static func with<T: Sendable>(_ script: Script, _ body: (ScriptedHTTPServer) async throws -> T) async throws -> T {
        let box = NIOLockedValueBox<ScriptedHTTPServer?>(nil)
        let connections = NIOLockedValueBox<[any Channel]>([])
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                connections.withLockedValue { $0.append(child) }
                return child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(ScriptHandler(script: script, onRequest: { box.withLockedValue { $0?.count() } }))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = ScriptedHTTPServer(channel: channel, port: channel.localAddress?.port ?? 0, connections: connections)
        box.withLockedValue { $0 = server }
        let result: Result<T, any Error>
        do {
            result = .success(try await body(server))
        } catch {
            result = .failure(error)
        }
        try? await channel.close()
        await server.closeConnections()
        return try result.get()
    }

    private func count() {
        received.withLockedValue { $0 += 1 }
    }
}

/// Answers the first request on a connection with the script, ignoring what follows; every answer says
/// `Connection: close`, so a client opens a new connection (and is counted again) for its next request.
private final class ScriptHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let script: ScriptedHTTPServer.Script
    let onRequest: @Sendable () -> Void
    private let answered = NIOLockedValueBox(false)
    private let seen = NIOLockedValueBox("")

    init(script: ScriptedHTTPServer.Script, onRequest: @escaping @Sendable () -> Void) {
        self.script = script
        self.onRequest = onRequest
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let text = seen.withLockedValue { seen in
            seen += String(buffer: buffer)
            return seen
        }
        guard text.contains("\r\n\r\n"), !answered.withLockedValue({ $0 }) else { return }
        answered.withLockedValue { $0 = true }
        onRequest()
        let channel = context.channel
        switch script {
        case .redirect(let status, let location):
            channel.writeAndFlush(
                ByteBuffer(string: "HTTP/1.1 \(status) Redirect\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
                promise: nil)
        case .large(let size):
            channel.write(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: \(size)\r\nConnection: close\r\n\r\n"), promise: nil)
            channel.writeAndFlush(ByteBuffer(repeating: UInt8(ascii: "x"), count: size), promise: nil)
        case .plain(let status):
            channel.writeAndFlush(ByteBuffer(string: "HTTP/1.1 \(status) Answer\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"), promise: nil)
        case .json(let status, let body):
            let head =
                "HTTP/1.1 \(status) Answer\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
            channel.writeAndFlush(ByteBuffer(string: head + body), promise: nil)
        case .trickle(let interval):
            channel.writeAndFlush(ByteBuffer(string: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"), promise: nil)
            // One byte per interval until the peer closes the connection.
            channel.eventLoop.scheduleRepeatedTask(initialDelay: TimeAmount(interval), delay: TimeAmount(interval)) { task in
                guard channel.isActive else {
                    task.cancel()
                    return
                }
                channel.writeAndFlush(ByteBuffer(string: "1\r\nx\r\n"), promise: nil)
            }
        }
    }
}
