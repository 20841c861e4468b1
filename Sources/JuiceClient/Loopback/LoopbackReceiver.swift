import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// A one-shot HTTP listener on 127.0.0.1, where the browser delivers the response of a sign-in.
///
/// It listens on a port the system picks, calls `onListening` with its redirect URI (open the browser
/// there), accepts exactly one request to ``path`` — a `GET` with a query, or a `form_post` `POST` — answers
/// it with a small "you can close this window" page, stops listening and returns the parameters. Anything
/// else is answered with an error and does not end the wait: another path (a browser asking for
/// `/favicon.ico`) 404, another method 405, a request larger than ``maximumRequestSize`` 413, a `Host` other
/// than the loopback address (DNS rebinding) 421, a malformed request 400. Once a request is accepted the
/// port is closed, so a second one is refused.
///
/// ```swift
/// let callback = try await LoopbackReceiver(timeout: .seconds(300)).receive { redirectURI in
///     try await browser.open(bridgeURL(redirectTo: redirectURI))
/// }
/// print(callback["state"] ?? "no state")
/// ```
public struct LoopbackReceiver: Sendable {
    /// The path of the redirect URI.
    public var path: String
    /// How long to wait for the request before giving up with ``AuthorizationError/Code/canceled``.
    public var timeout: Duration
    /// The clock measuring ``timeout`` (inject a test clock).
    public var clock: any Clock<Duration>
    /// The largest request target or body accepted, in bytes (headers are limited to 80 KiB by the parser).
    public var maximumRequestSize: Int
    /// The event loops serving the listener.
    public var eventLoopGroup: any EventLoopGroup
    /// Where the receiver logs, at debug level and without parameter values.
    public var logger: Logger

    /// A receiver with the given settings.
    public init(
        path: String = "/callback",
        timeout: Duration = .seconds(300),
        clock: any Clock<Duration> = ContinuousClock(),
        maximumRequestSize: Int = 64 * 1024,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "juice-client", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.path = path
        self.timeout = timeout
        self.clock = clock
        self.maximumRequestSize = maximumRequestSize
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    /// Listens, hands the redirect URI to `onListening`, and waits for the one request.
    ///
    /// - Parameter onListening: Called once the port is open, with `http://127.0.0.1:PORT/path`.
    /// - Throws: ``AuthorizationError``: ``AuthorizationError/Code/canceled`` on timeout or task
    ///   cancellation, ``AuthorizationError/Code/failed`` when the port cannot be opened, or what
    ///   `onListening` threw.
    public func receive(
        onListening: (URL) async throws(AuthorizationError) -> Void
    ) async throws(AuthorizationError) -> LoopbackCallback {
        guard path.hasPrefix("/"), !path.contains("?"), !path.contains("#") else {
            throw .failed("the loopback path must start with \"/\" and have no query or fragment")
        }
        let (callbacks, sink) = AsyncStream.makeStream(of: LoopbackCallback.self)
        let exchange = LoopbackExchange(path: path, maximumRequestSize: maximumRequestSize, logger: logger, sink: sink)
        let server: any Channel
        do {
            server = try await ServerBootstrap(group: eventLoopGroup)
                .serverChannelOption(.backlog, value: 16)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        try channel.pipeline.syncOperations.addHandler(LoopbackRequestHandler(exchange: exchange))
                    }
                }
                .bind(host: "127.0.0.1", port: 0)
                .get()
        } catch {
            throw .failed("cannot listen on 127.0.0.1: \(error)")
        }
        guard let port = server.localAddress?.port, let redirectURI = URL(string: "http://127.0.0.1:\(port)\(path)") else {
            await Self.close(server, exchange)
            throw .failed("the loopback listener has no port")
        }
        exchange.port = port
        logger.debug("loopback receiver listening", metadata: ["port": "\(port)"])
        let result: Result<LoopbackCallback, AuthorizationError>
        do throws(AuthorizationError) {
            try await onListening(redirectURI)
            result = .success(try await wait(for: callbacks))
        } catch {
            result = .failure(error)
        }
        await Self.close(server, exchange)
        return try result.get()
    }

    private enum Event: Sendable {
        case received(LoopbackCallback)
        case timedOut
        case stopped
    }

    /// The first callback, or the timeout, or the task's cancellation.
    private func wait(for callbacks: AsyncStream<LoopbackCallback>) async throws(AuthorizationError) -> LoopbackCallback {
        let event: Event
        do {
            event = try await withThrowingTaskGroup(of: Event.self) { group in
                group.addTask { [clock, timeout] in
                    try await clock.sleep(for: timeout)
                    return .timedOut
                }
                group.addTask {
                    for await callback in callbacks { return .received(callback) }
                    return .stopped
                }
                let first = try await group.next() ?? .stopped
                group.cancelAll()
                return first
            }
        } catch {
            throw .canceled("the wait for the browser was cancelled")
        }
        switch event {
        case .received(let callback):
            logger.debug("loopback receiver got the response", metadata: ["method": "\(callback.method)"])
            return callback
        case .timedOut:
            throw .canceled("no response from the browser within \(timeout)")
        case .stopped:
            throw .canceled("the wait for the browser was cancelled")
        }
    }

    /// Stops listening and closes every connection still open.
    private static func close(_ server: any Channel, _ exchange: LoopbackExchange) async {
        try? await server.close()
        for connection in exchange.finish() {
            try? await connection.close()
        }
    }
}
