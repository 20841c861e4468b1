import Foundation
import Hummingbird
import JuiceStackSupport
import JuiceTestSupport
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// Sits between the emulator and the server's `/apple/notifications`: forwards every delivery
/// unchanged and keeps a copy, so a test can deliver a real notification a second time.
actor NotificationTap {
    private(set) var bodies: [String] = []
    let port: Int

    init(port: Int) {
        self.port = port
    }

    var url: String { "http://127.0.0.1:\(port)/apple/notifications" }

    func record(_ body: String) { bodies.append(body) }

    /// Runs a tap on `port` forwarding to `target` for the duration of `body`.
    static func with<T: Sendable>(port: Int, target: String, _ body: @Sendable (NotificationTap) async throws -> T) async throws -> T {
        let tap = NotificationTap(port: port)
        let router = Router()
        router.post("/apple/notifications") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 64 * 1024)
            let text = String(buffer: bytes)
            await tap.record(text)
            let answer = try await TestHTTP(timeout: .seconds(10)).post(target, json: text, headers: [("Content-Type", "application/json")])
            return Response(status: .init(code: answer.status), body: .init(byteBuffer: ByteBuffer(string: answer.body)))
        }
        var logger = Logger(label: "notification-tap")
        logger.logLevel = .warning
        let ready = AsyncStream.makeStream(of: Void.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), onServerRunning: { _ in ready.continuation.yield() },
            logger: logger
        )
        return try await withRunningServices([app], logger: logger, ready: ready) { _ in try await body(tap) }
    }
}
