import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The private email relay's SMTP listener, a service run next to the emulator's HTTP server.
///
/// Serves several connections at once (up to ``SMTPOptions/maximumConnections``, and
/// ``SMTPOptions/maximumConnectionsPerAddress`` from one client address), each with the size limit, idle
/// timeout, session deadline and minimum data rate of its options; stops accepting on graceful
/// shutdown and ends the conversations in progress (a message not yet complete is not stored).
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
                    try channel.pipeline.syncOperations.addHandler(SMTPPaceKeeper(hostname: hostname, options: options))
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
        let limiter = SMTPConnectionLimiter(maximum: options.maximumConnections, maximumPerAddress: options.maximumConnectionsPerAddress)
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                try? await server.executeThenClose { connections in
                    for try await connection in connections {
                        let address = connection.channel.remoteAddress?.ipAddress ?? "unknown"
                        switch limiter.admit(address) {
                        case .admitted:
                            group.addTask {
                                await converse(connection)
                                limiter.release(address)
                            }
                        case .relayFull:
                            group.addTask { await Self.refuse(connection, "\(hostname) too many connections; try again later") }
                        case .addressFull:
                            group.addTask { await Self.refuse(connection, "\(hostname) too many connections from your address; try again later") }
                        }
                    }
                }
            }
        }
    }

    private func converse(_ connection: NIOAsyncChannel<SMTPLine, ByteBuffer>) async {
        var session = SMTPSession(
            relay: relay, hostname: hostname, maximumMessageSize: options.maximumMessageSize,
            maximumRefusedRecipients: options.maximumRefusedRecipients)
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

    private static func refuse(_ connection: NIOAsyncChannel<SMTPLine, ByteBuffer>, _ text: String) async {
        try? await connection.executeThenClose { _, outbound in
            try await outbound.write(ByteBuffer(string: SMTPReply(421, "4.7.0", text).text))
        }
    }
}
