import AsyncHTTPClient
import JuiceHTTP
import Logging
import NIOCore
import NIOHTTP1
import SQLKit
import ServiceLifecycle

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Delivers queued notifications: signs each with the current key, POSTs `{"payload": "<JWT>"}` to
/// the app's notification URL, and on failure retries with doubling, capped backoff up to a bounded
/// number of attempts. The queue lives in the store, so deliveries survive a restart.
///
/// Endpoints are served concurrently, one notification in flight per endpoint (in queue order), at most
/// ``EmulatorOptions/outboxConcurrentEndpoints`` endpoints at once, each attempt bounded by one deadline
/// for the whole exchange and a body size limit: a slow or dead endpoint holds only its own queue
/// (issue 40). Redirects are answers (failed attempts), never followed: the service owns an
/// ``OutgoingHTTP`` client for as long as it runs, and shuts it down when it stops.
struct NotificationDeliveryService: Service {
    struct Claims: Encodable {
        let iss: String
        let aud: String
        let iat: Int64
        let exp: Int64
        let jti: String
        let events: String
    }

    /// The largest answer body read from a notification endpoint; a larger one fails the attempt.
    static let maximumResponseSize = 64 * 1024

    let store: EmulatorStore
    let signer: JWSSigner
    let address: EmulatorAddress
    let time: EmulatorTime
    let options: EmulatorOptions
    let logger: Logger
    /// `drop_notifications`: consulted once per attempt (``DroppedNotification``).
    var failures = FailureInjection()
    /// The endpoints with a delivery in flight.
    let busy = BusyEndpoints()

    /// Told after each poll of the outbox how many endpoints' deliveries it started: a test's readiness
    /// signal that a poll found nothing due, so "not retried yet" needs no fixed sleep. Bound around the
    /// emulator's run (a task-local reaches the service's task); `nil` in production.
    @TaskLocal static var pollObserver: (@Sendable (_ started: Int) -> Void)?

    func run() async throws {
        let httpClient = OutgoingHTTP.makeClient()
        await deliverUntilShutdown(httpClient)
        do {
            try await httpClient.shutdown()
        } catch {
            logger.debug("HTTP client shutdown failed", metadata: ["error.type": "\(type(of: error))"])
        }
    }

    /// Polls the outbox and delivers until graceful shutdown.
    func deliverUntilShutdown(_ httpClient: HTTPClient) async {
        // Ends promptly on graceful shutdown: the sleep between polls is cancelled, which ends the group and
        // cancels the deliveries in flight (a cancelled attempt is not recorded; the notification stays due).
        try? await cancelWhenGracefulShutdown {
            try await withThrowingDiscardingTaskGroup { group in
                let limit = max(1, options.outboxConcurrentEndpoints)
                while true {
                    var started = 0
                    for (url, entries) in await dueByEndpoint() where busy.claim(url, limit: limit) {
                        started += 1
                        group.addTask {
                            defer { busy.release(url) }
                            await deliver(entries, with: httpClient)
                        }
                    }
                    Self.pollObserver?(started)
                    try await Task.sleep(for: options.outboxPollInterval)
                }
            }
        }
    }

    /// The notifications due now whose endpoint has nothing in flight, grouped by endpoint, each group in
    /// queue order, endpoints in the order of their oldest due notification. Busy endpoints are left out
    /// in the query itself, so a long backlog for one of them never hides another endpoint's notifications.
    func dueByEndpoint() async -> [(url: String, entries: [OutboxEntry])] {
        let now = time.now.timeIntervalSince1970
        let busyURLs: [any Encodable & Sendable] = busy.urls
        let due: [OutboxEntry]
        do {
            due = try await store.transaction { database in
                try await database.raw(
                    """
                    SELECT \(OutboxEntry.columns) FROM outbox
                    WHERE delivered_at IS NULL AND failed_at IS NULL AND next_attempt_at <= \(bind: now)
                        AND url NOT IN (\(binds: busyURLs)) ORDER BY id LIMIT 200
                    """
                ).all(decoding: OutboxEntry.self)
            }
        } catch {
            logger.debug("outbox read failed", metadata: ["error.type": "\(type(of: error))"])
            return []
        }
        var groups: [(url: String, entries: [OutboxEntry])] = []
        var index: [String: Int] = [:]
        for entry in due {
            if let position = index[entry.url] {
                groups[position].entries.append(entry)
            } else {
                index[entry.url] = groups.count
                groups.append((entry.url, [entry]))
            }
        }
        return groups
    }

    /// Attempts one endpoint's due notifications, one after the other.
    func deliver(_ entries: [OutboxEntry], with httpClient: HTTPClient) async {
        for entry in entries {
            if Task.isCancelled { return }
            await attempt(entry, with: httpClient)
        }
    }

    /// One attempt: POSTs, then records the outcome on the outbox row and in the delivery log (with the
    /// time the attempt started), in one transaction.
    func attempt(_ entry: OutboxEntry, with httpClient: HTTPClient) async {
        let started = time.now.timeIntervalSince1970
        let dropped = DroppedNotification.isDropped(audience: entry.audience, failures: failures)
        let posted: DeliveryResult? = await dropped ? .failure(DroppedNotification.reason) : post(entry, with: httpClient)
        // Cancelled (shutting down): no attempt is recorded, and the notification stays due.
        guard let result = posted else { return }
        let attempts = entry.attempts + 1
        let now = time.now.timeIntervalSince1970
        let delivered = result.isDelivered
        let givingUp = !delivered && (dropped || attempts >= options.outboxMaximumAttempts)
        let next = now + options.backoff(afterAttempts: attempts)
        logger.debug(
            "notification attempt",
            metadata: ["jti": "\(entry.jti)", "type": "\(entry.eventType)", "attempt": "\(attempts)", "result": "\(result.summary)"]
        )
        do {
            try await store.transaction { database in
                try await database.raw(
                    """
                    UPDATE outbox SET attempts = \(bind: attempts), last_result = \(bind: result.summary),
                        delivered_at = \(bind: delivered ? now : nil), failed_at = \(bind: givingUp ? now : nil),
                        next_attempt_at = \(bind: delivered || givingUp ? now : next)
                    WHERE id = \(bind: entry.id)
                    """
                ).run()
                try await NotificationDeliveryLog.record(
                    notificationID: entry.id, url: entry.url, at: started, result: result, nextAttemptAt: delivered || givingUp ? nil : next,
                    in: database)
            }
        } catch {
            logger.debug("outbox update failed", metadata: ["error.type": "\(type(of: error))"])
        }
    }

    /// POSTs one notification; returns the HTTP status, or a short failure description, or `nil` when the
    /// attempt was cancelled.
    private func post(_ entry: OutboxEntry, with httpClient: HTTPClient) async -> DeliveryResult? {
        let issuedAt = Int64(time.now.timeIntervalSince1970)
        let payload: String
        do {
            payload = try await signer.sign(
                Claims(iss: address.issuer, aud: entry.audience, iat: issuedAt, exp: issuedAt + 3600, jti: entry.jti, events: entry.event)
            )
        } catch {
            return .failure("signing failed")
        }
        var request = HTTPClientRequest(url: entry.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        let body = try? JSONEncoder().encode(["payload": payload])
        request.body = .bytes(ByteBuffer(bytes: body ?? Data()))
        do {
            let response = try await httpClient.boundedExecute(
                request, deadline: options.outboxRequestTimeout, maximumBodySize: Self.maximumResponseSize, logger: logger)
            return .status(Int(response.status.code))
        } catch .cancelled {
            return nil
        } catch {
            return DeliveryResult(error)
        }
    }
}
