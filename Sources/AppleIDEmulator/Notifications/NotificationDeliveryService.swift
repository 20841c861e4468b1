import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import SQLKit
import ServiceLifecycle

/// Delivers queued notifications: signs each with the current key, POSTs `{"payload": "<JWT>"}` to
/// the app's notification URL, and on failure retries with doubling, capped backoff up to a bounded
/// number of attempts. The queue lives in the store, so deliveries survive a restart.
struct NotificationDeliveryService: Service {
    struct Claims: Encodable {
        let iss: String
        let aud: String
        let iat: Int64
        let exp: Int64
        let jti: String
        let events: String
    }

    let store: EmulatorStore
    let signer: JWSSigner
    let address: EmulatorAddress
    let time: EmulatorTime
    let options: EmulatorOptions
    let httpClient: HTTPClient
    let logger: Logger
    /// `drop_notifications`: consulted once per attempt (``DroppedNotification``).
    var failures = FailureInjection()

    func run() async throws {
        // Ends promptly on graceful shutdown: the sleep between polls is cancelled.
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await deliverDue()
                try await Task.sleep(for: options.outboxPollInterval)
            }
        }
    }

    /// Attempts every notification that is due now.
    func deliverDue() async {
        let now = time.now.timeIntervalSince1970
        let due: [OutboxEntry]
        do {
            due = try await store.transaction { database in
                try await database.raw(
                    """
                    SELECT \(OutboxEntry.columns) FROM outbox
                    WHERE delivered_at IS NULL AND failed_at IS NULL AND next_attempt_at <= \(bind: now) ORDER BY id LIMIT 50
                    """
                ).all(decoding: OutboxEntry.self)
            }
        } catch {
            logger.debug("outbox read failed", metadata: ["error.type": "\(type(of: error))"])
            return
        }
        for entry in due {
            if Task.isCancelled { return }
            await attempt(entry)
        }
    }

    /// One attempt: POSTs, then records the outcome on the outbox row and in the delivery log, in one transaction.
    func attempt(_ entry: OutboxEntry) async {
        let dropped = DroppedNotification.isDropped(audience: entry.audience, failures: failures)
        let result: DeliveryResult = await dropped ? .failure(DroppedNotification.reason) : post(entry)
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
                    notificationID: entry.id, url: entry.url, at: now, result: result, nextAttemptAt: delivered || givingUp ? nil : next, in: database)
            }
        } catch {
            logger.debug("outbox update failed", metadata: ["error.type": "\(type(of: error))"])
        }
    }

    /// POSTs one notification; returns the HTTP status, or a short failure description.
    private func post(_ entry: OutboxEntry) async -> DeliveryResult {
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
            let (seconds, attoseconds) = options.outboxRequestTimeout.components
            let timeout = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            let response = try await httpClient.execute(request, timeout: timeout, logger: logger)
            _ = try? await response.body.collect(upTo: 64 * 1024)
            return .status(Int(response.status.code))
        } catch {
            // The client's own description (connect timeout, connection refused, TLS handshake failure…): no secrets.
            return .failure("unreachable: " + String(String(describing: error).prefix(200)))
        }
    }
}
