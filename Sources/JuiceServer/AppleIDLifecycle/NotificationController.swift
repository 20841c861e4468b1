import AppleSignIn
import Foundation
import Hummingbird
import Logging

/// `POST /apple/notifications`: Apple's server-to-server notifications.
///
/// The JWT is verified with the toolkit (Apple's keys, issuer, audience = any configured client id,
/// lifetime), deduplicated on `jti` and applied in one transaction (``AppleLifecycleStore/apply(_:receivedAt:)``).
/// Answers 200 `{"status": "applied" | "duplicate" | "ignored"}` — also for a repeated delivery and
/// an unknown event type — and 400 `{"error", "reason"}` with the verification code for a forged or
/// malformed one, 415 for a body that is not `application/json` (503 while Apple's keys cannot be
/// fetched, so Apple delivers it again).
struct NotificationController: Sendable {
    let verifier: ServerNotificationVerifier
    let lifecycle: AppleLifecycleStore
    let time: TimeSource

    struct Status: ResponseEncodable {
        var status: String
    }

    func addRoutes(to routes: ProtectedRoutes) {
        routes.exempt(because: "Apple's server-to-server call: the JWT signed with Apple's key is its proof").post("/apple/notifications") {
            request, context -> Response in
            // Apple posts JSON; anything else is refused unread (Apple retries a 4xx delivery).
            do throws(ServerError) {
                try request.requireJSONMediaType()
            } catch {
                return error.jsonResponse()
            }
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: ServerNotificationVerifier.maximumBodySize)
            } catch {
                return ServerError(.payloadTooLarge, status: .contentTooLarge, "the notification is larger than Apple sends").jsonResponse()
            }
            let notification: ServerNotification
            do {
                notification = try await verifier.verify(body: Array(body.readableBytesView))
            } catch let error as TokenVerificationError {
                context.logger.warning("notification refused", metadata: ["error": "\(error.code)"])
                return ServerError(refusedNotification: error).jsonResponse()
            }
            let outcome = try await lifecycle.apply(notification, receivedAt: time.now)
            let status: String
            switch outcome {
            case .applied: status = "applied"
            case .duplicate: status = "duplicate"
            case .ignored: status = "ignored"
            }
            context.logger.info("Apple notification", metadata: ["type": "\(notification.type.description.prefix(64))", "outcome": "\(status)"])
            return try Status(status: status).response(from: request, context: context)
        }
    }
}
