import Foundation
import Hummingbird
import Logging
import NIOCore
import SQLKit

/// `GET /health` and `GET /metrics`, for load balancers and Prometheus.
///
/// `/health` answers 200 `{"status": "ok", "database": "ok"}` when a `SELECT 1` succeeds and 503
/// `{"status": "unavailable", "database": "unreachable"}` when it does not. `/metrics` renders
/// ``ServerMetrics`` in Prometheus' text format, reading the queued-revocation count first.
struct OperationsController: Sendable {
    /// Counts revocations waiting for Apple; `nil` when there is no queue.
    typealias QueuedRevocationCount = @Sendable () async -> Int?

    let database: any JuiceDatabase
    let metrics: ServerMetrics
    let queuedRevocations: QueuedRevocationCount

    /// Creates the controller.
    /// - Parameter queuedRevocations: The gauge's source; by default the rows of a
    ///   `pending_revocations` table, when the schema has one.
    init(database: any JuiceDatabase, metrics: ServerMetrics, queuedRevocations: QueuedRevocationCount? = nil) {
        self.database = database
        self.metrics = metrics
        self.queuedRevocations = queuedRevocations ?? { await Self.pendingRevocationRows(database) }
    }

    struct Health: ResponseEncodable {
        let status: String
        let database: String
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("/health") { _, context -> EditedResponse<Health> in
            do {
                try await database.read { sql in try await sql.raw("SELECT 1").run() }
                return EditedResponse(headers: [.cacheControl: "no-store"], response: Health(status: "ok", database: "ok"))
            } catch {
                context.logger.error("health check: the database cannot be reached", metadata: ["error.type": "\(type(of: error))"])
                return EditedResponse(
                    status: .serviceUnavailable, headers: [.cacheControl: "no-store"],
                    response: Health(status: "unavailable", database: "unreachable")
                )
            }
        }
        routes.get("/metrics") { _, _ -> Response in
            if let count = await queuedRevocations() { metrics.setQueuedRevocations(count) }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.render()))
            )
        }
        return routes
    }

    /// The number of rows in `pending_revocations`, or `nil` when the table does not exist (yet).
    static func pendingRevocationRows(_ database: any JuiceDatabase) async -> Int? {
        try? await database.read { sql in
            try await sql.raw("SELECT COUNT(*) AS queued FROM pending_revocations").first()?.decode(column: "queued", as: Int.self)
        }
    }
}
