import AppleSignIn
import Foundation
import JuiceEncodings
import Logging

/// Revokes queued refresh tokens at Apple: once right after an account is deleted, then again with
/// exponential backoff (30 s doubling, at most an hour apart) until Apple confirms. An entry is
/// never dropped: a token that cannot be opened (a lost refresh-token key) stays queued and is
/// logged at error level.
struct RevocationQueue: Sendable {
    let store: RevocationStore
    let client: AppleIDClient
    let cipher: RefreshTokenCipher
    let time: TimeSource
    /// The wait after the first failure; doubled for each further one.
    var initialBackoff: TimeInterval = 30
    /// The longest wait between two attempts.
    var maximumBackoff: TimeInterval = 3600
    /// Times each call to Apple's revoke endpoint (`juice_apple_call_seconds{endpoint="revoke"}`).
    var metrics: ServerMetrics? = nil

    /// Tries one entry now; `true` when Apple confirmed and the entry is gone.
    @discardableResult
    func attempt(id: String, logger: Logger) async throws -> Bool {
        guard let entry = try await store.revocation(id: id) else { return true }
        return try await attempt(entry, logger: logger)
    }

    /// Tries every entry that is due; returns how many Apple confirmed.
    @discardableResult
    func retryDue(logger: Logger) async throws -> Int {
        var confirmed = 0
        for entry in try await store.revocationsDue(now: time.now, limit: 100) {
            if Task.isCancelled { break }
            if try await attempt(entry, logger: logger) { confirmed += 1 }
        }
        return confirmed
    }

    private func attempt(_ entry: PendingRevocation, logger: Logger) async throws -> Bool {
        let token: String
        do {
            token = try cipher.open(entry.sealedToken, subject: entry.subject)
        } catch {
            logger.error("a queued refresh token cannot be opened; is the refresh-token key the one it was sealed with?")
            try await reschedule(entry, failure: "sealed_token_unreadable", logger: logger)
            return false
        }
        do {
            try await revoke(token, clientID: entry.clientID)
        } catch {
            try await reschedule(entry, failure: error.code.description + (error.appleError.map { ":\($0.prefix(32))" } ?? ""), logger: logger)
            return false
        }
        try await store.complete(id: entry.id)
        logger.info("refresh token revoked at Apple", metadata: ["revocation": "\(entry.id)", "attempts": "\(entry.attempts + 1)"])
        return true
    }

    private func revoke(_ token: String, clientID: String) async throws(AppleIDClientError) {
        let client = client
        guard let metrics else { return try await client.revoke(token, hint: .refreshToken, clientID: clientID) }
        try await metrics.timingAppleCall(endpoint: "revoke", errorCode: { $0.code.description }) { () async throws(AppleIDClientError) in
            try await client.revoke(token, hint: .refreshToken, clientID: clientID)
        }
    }

    private func reschedule(_ entry: PendingRevocation, failure: String, logger: Logger) async throws {
        let attempts = entry.attempts + 1
        let wait = retryBackoff(afterAttempts: attempts, initial: initialBackoff, maximum: maximumBackoff)
        try await store.reschedule(id: entry.id, attempts: attempts, nextAttemptAt: time.now.addingTimeInterval(wait), error: failure)
        logger.warning(
            "revocation at Apple failed; queued", metadata: ["revocation": "\(entry.id)", "attempts": "\(attempts)", "error": "\(failure)"]
        )
    }
}
