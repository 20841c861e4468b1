import AppleSignIn
import Foundation
import Logging

/// The sending team's step of an app transfer (Apple's TN3159): before the app moves to another
/// team, each stored Apple `sub` is exchanged for a `transfer_sub` (`/auth/usermigrationinfo`) and
/// kept with the identity.
///
/// After the transfer the server runs with the receiving team's key. ``migrate(logger:)`` (the
/// receiving team's step) exchanges every stored `transfer_sub` for the new team's `sub` and re-keys
/// the accounts at once; any account it has not reached is re-keyed by its first sign-in, whose
/// token carries `transfer_sub` for 60 days (see ``AppleSignInRecord/transferSubject``). The old
/// `sub`'s credential state is then ``CredentialState/transferred``.
///
/// ```swift
/// // Sending team, before the transfer:
/// try await dependencies.appTransfer.prepare(targetTeamID: "NEWTEAM123", logger: logger)
/// // Receiving team, after it (configured with its own key):
/// try await dependencies.appTransfer.migrate(logger: logger)
/// ```
struct AppTransfer: Sendable {
    let store: AppleLifecycleStore
    let client: AppleIDClient
    let time: TimeSource

    /// Stores a `transfer_sub` for every Apple ID that has none yet; returns how many were stored.
    /// - Throws: ``AppleIDClientError`` when Apple refuses or cannot be reached (run it again: it
    ///   continues where it stopped).
    @discardableResult
    func prepare(targetTeamID: String, logger: Logger) async throws -> Int {
        var accessTokens = MigrationAccessTokens(client: client)
        var prepared = 0
        while true {
            let batch = try await store.subjectsWithoutTransferSubject(limit: 100)
            if batch.isEmpty { return prepared }
            for identity in batch {
                let accessToken = try await accessTokens.token(for: identity.clientID)
                let transferSubject = try await client.transferSubject(
                    for: identity.subject, to: targetTeamID, clientID: identity.clientID, accessToken: accessToken
                )
                try await store.setTransferSubject(transferSubject, for: identity.subject)
                prepared += 1
            }
            logger.info("app transfer: transfer identifiers stored", metadata: ["count": "\(prepared)"])
        }
    }

    /// Receiving team: exchanges each stored `transfer_sub` for this team's `sub` (and email) and
    /// re-keys the account; returns how many were re-keyed.
    /// - Throws: ``AppleIDClientError`` when Apple refuses or cannot be reached (run it again).
    @discardableResult
    func migrate(logger: Logger) async throws -> Int {
        var accessTokens = MigrationAccessTokens(client: client)
        var migrated = 0
        var seen: Set<String> = []
        while true {
            let batch = try await store.pendingTransfers(limit: 100).filter { !seen.contains($0.transferSubject) }
            if batch.isEmpty { return migrated }
            for pending in batch {
                seen.insert(pending.transferSubject)
                let accessToken = try await accessTokens.token(for: pending.clientID)
                let user = try await client.migratedUser(
                    forTransferSubject: pending.transferSubject, clientID: pending.clientID, accessToken: accessToken
                )
                if try await store.completeTransfer(
                    transferSubject: pending.transferSubject, to: user.subject, email: user.email, isPrivateEmail: user.isPrivateEmail, at: time.now
                ) {
                    migrated += 1
                }
            }
            logger.info("app transfer: accounts re-keyed", metadata: ["count": "\(migrated)"])
        }
    }
}

/// The migration access tokens of one run, fetched once per client id.
private struct MigrationAccessTokens {
    let client: AppleIDClient
    private var tokens: [String: String] = [:]

    init(client: AppleIDClient) {
        self.client = client
    }

    /// The access token for `clientID`, asked of Apple the first time only.
    mutating func token(for clientID: String) async throws -> String {
        if let cached = tokens[clientID] { return cached }
        let token = try await client.migrationAccessToken(clientID: clientID).accessToken
        tokens[clientID] = token
        return token
    }
}
