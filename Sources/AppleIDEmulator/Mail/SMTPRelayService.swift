import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// The private email relay's SMTP listener, a service run next to the emulator's HTTP server.
///
/// Serves several connections at once (up to ``SMTPOptions/maximumConnections``), each with the size
/// limit and idle timeout of its options; stops accepting on graceful shutdown and ends the
/// conversations in progress (a message not yet complete is not stored).
struct SMTPRelayService: Service {
    let options: SMTPOptions
    let relay: MailRelay
    let hostname: String
    let logger: Logger
    let onRunning: @Sendable (Int) async -> Void

    func run() async throws {
        let options = options
        let hostname = hostname
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: options.host, port: options.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: TimeAmount(options.idleTimeout)))
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(SMTPLineDecoder(maximumLength: SMTPSession.maximumLineLength)))
                    try channel.pipeline.syncOperations.addHandler(SMTPIdleCloser(hostname: hostname))
                    return try NIOAsyncChannel<SMTPLine, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let port = server.channel.localAddress?.port ?? options.port
        logger.info("private email relay (SMTP) listening", metadata: ["address": "\(options.host):\(port)"])
        await onRunning(port)
        let open = ConnectionCount()
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                try? await server.executeThenClose { connections in
                    for try await connection in connections {
                        guard open.value.wrappingAdd(1, ordering: .relaxed).newValue <= options.maximumConnections else {
                            open.value.wrappingSubtract(1, ordering: .relaxed)
                            group.addTask { await Self.refuse(connection, hostname: hostname) }
                            continue
                        }
                        group.addTask {
                            await converse(connection)
                            open.value.wrappingSubtract(1, ordering: .relaxed)
                        }
                    }
                }
            }
        }
    }

    private func converse(_ connection: NIOAsyncChannel<SMTPLine, ByteBuffer>) async {
        var session = SMTPSession(relay: relay, hostname: hostname, maximumMessageSize: options.maximumMessageSize)
        do {
            try await connection.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: session.greeting.text))
                for try await line in inbound {
                    let output = await session.receive(line)
                    for reply in output.replies { try await outbound.write(ByteBuffer(string: reply.text)) }
                    if output.close { return }
                }
            }
        } catch {
            logger.debug("SMTP connection ended", metadata: ["error.type": "\(type(of: error))"])
        }
        if session.isReceivingMessage { logger.info("SMTP client left during DATA; nothing was stored") }
    }

    private static func refuse(_ connection: NIOAsyncChannel<SMTPLine, ByteBuffer>, hostname: String) async {
        try? await connection.executeThenClose { _, outbound in
            try await outbound.write(ByteBuffer(string: SMTPReply(421, "4.7.0", "\(hostname) too many connections; try again later").text))
        }
    }
}

/// The number of conversations in progress.
private final class ConnectionCount: Sendable {
    let value = Atomic<Int>(0)
}
