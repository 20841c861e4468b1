import Hummingbird
import HummingbirdTesting
import Logging

/// Runs `router` on a real socket (127.0.0.1, a free port) for the duration of `body`, which gets the base URL.
func withLiveServer<Value: Sendable>(
    _ router: Router<BasicRequestContext>,
    _ body: @Sendable (String) async throws -> Value
) async throws -> Value {
    var logger = Logger(label: "test-server")
    logger.logLevel = .warning
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
    return try await app.test(.live) { client in
        try await body("http://127.0.0.1:\(client.port!)")
    }
}
