import Foundation
import Hummingbird
import JuiceTestSupport
import Logging
import ServiceLifecycle

/// A relying party's notification endpoint on a free loopback port: records every POST body and
/// answers 500 while told to fail.
actor NotificationReceiver {
    private(set) var bodies: [[UInt8]] = []
    private var failuresLeft: Int

    init(failFirst: Int) {
        failuresLeft = failFirst
    }

    func setFailures(_ count: Int) {
        failuresLeft = count
    }

    func receive(_ body: [UInt8]) -> Bool {
        bodies.append(body)
        if failuresLeft > 0 {
            failuresLeft -= 1
            return false
        }
        return true
    }

    var count: Int { bodies.count }

    /// Runs a receiver for the duration of `body`, passing its notification URL.
    static func with<T: Sendable>(failFirst: Int = 0, _ body: @Sendable (NotificationReceiver, String) async throws -> T) async throws -> T {
        let receiver = NotificationReceiver(failFirst: failFirst)
        let router = Router()
        router.post("/apple/notifications") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 64 * 1024)
            let accepted = await receiver.receive(Array(bytes.readableBytesView))
            return Response(status: accepted ? .ok : .internalServerError)
        }
        var logger = Logger(label: "receiver")
        logger.logLevel = .warning
        let ready = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { ready.continuation.yield($0.localAddress?.port ?? 0) }, logger: logger
        )
        return try await withRunningServices([app], logger: logger, ready: ready) { port in
            try await body(receiver, "http://127.0.0.1:\(port)/apple/notifications")
        }
    }
}
