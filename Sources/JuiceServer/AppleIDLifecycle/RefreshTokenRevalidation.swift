import AppleSignIn
import Foundation
import Logging

/// Validates stored Apple refresh tokens, each at most once per ``period`` (a day): Apple's
/// `invalid_grant` means the person revoked consent or deleted their Apple ID, so the identity is
/// marked revoked and its sessions end. Transient failures leave the token to the next pass.
struct RefreshTokenRevalidation: Sendable {
    /// What one pass did.
    struct Summary: Sendable, Hashable {
        /// Tokens Apple accepted.
        var valid = 0
        /// Tokens Apple refused (`invalid_grant`): identities revoked.
        var revoked = 0
        /// Tokens that could not be checked now.
        var failed = 0
    }

    let store: AppleLifecycleStore
    let client: AppleIDClient
    let cipher: RefreshTokenCipher
    let time: TimeSource
    /// How long a successful check counts (Apple asks for at most one validation a day).
    var period: TimeInterval = 86_400
    /// The most tokens checked in one pass.
    var batchSize: Int = 100

    /// Checks every token not checked within ``period``.
    @discardableResult
    func checkDue(logger: Logger) async throws -> Summary {
        var summary = Summary()
        let now = time.now
        for credential in try await store.refreshTokensDue(checkedBefore: now.addingTimeInterval(-period), limit: batchSize) {
            if Task.isCancelled { break }
            guard let sealed = credential.sealedRefreshToken, let token = try? cipher.open(sealed, subject: credential.subject) else {
                logger.error("a stored refresh token cannot be opened; is the refresh-token key the one it was sealed with?")
                summary.failed += 1
                continue
            }
            do {
                _ = try await client.validateRefreshToken(token, clientID: credential.clientID)
                try await store.markChecked(subject: credential.subject, at: now)
                summary.valid += 1
            } catch let error as AppleIDClientError where error.isInvalidGrant {
                let ended = try await store.markRevoked(subject: credential.subject, at: now)
                logger.info("Apple refused a refresh token: Apple ID revoked", metadata: ["sessions_ended": "\(ended)"])
                summary.revoked += 1
            } catch let error as AppleIDClientError {
                logger.warning("refresh-token check failed; retried next pass", metadata: ["error": "\(error.code)"])
                summary.failed += 1
            }
        }
        return summary
    }
}
