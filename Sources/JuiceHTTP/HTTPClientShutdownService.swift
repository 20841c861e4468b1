import AsyncHTTPClient
import Logging
import ServiceLifecycle

/// Owns a component's outgoing `HTTPClient` for the life of its service group: waits for graceful
/// shutdown, then shuts the client down. List it before the services that use the client: a
/// `ServiceGroup` stops its services in reverse order, so the client outlives its users.
package struct HTTPClientShutdownService: Service {
    /// The client this service shuts down.
    package let client: HTTPClient
    private let logger: Logger

    package init(client: HTTPClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    package func run() async throws {
        // Returns on graceful shutdown or cancellation; either way the client is shut down.
        try? await gracefulShutdown()
        do {
            try await client.shutdown()
        } catch {
            logger.debug("HTTP client shutdown failed", metadata: ["error.type": "\(type(of: error))"])
        }
    }
}
