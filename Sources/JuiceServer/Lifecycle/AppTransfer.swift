import AppleSignIn
import Foundation
import Logging

/// The sending team's step of an app transfer (Apple's TN3159): before the app moves to another
/// team, each stored Apple `sub` is exchanged for a `transfer_sub` (`/auth/usermigrationinfo`) and
/// kept with the identity.
///
/// After the transfer the server runs with the receiving team's key; the new team's identity
/// tokens carry `transfer_sub` for 60 days, and the first sign-in with one re-keys the account to
/// its new `sub` (see ``AppleSignInRecord/transferSubject``). The old `sub`'s credential state is
/// then ``CredentialState/transferred``.
///
/// ```swift
/// let prepared = try await dependencies.appTransfer.prepare(targetTeamID: "NEWTEAM123", logger: logger)
/// ```
public struct AppTransfer: Sendable {
    let store: any AppleLifecycleStore
    let client: AppleIDClient

    public init(store: any AppleLifecycleStore, client: AppleIDClient) {
        self.store = store
        self.client = client
    }

    /// Stores a `transfer_sub` for every Apple ID that has none yet; returns how many were stored.
    /// - Throws: ``AppleIDClientError`` when Apple refuses or cannot be reached (run it again: it
    ///   continues where it stopped).
    @discardableResult
    public func prepare(targetTeamID: String, logger: Logger) async throws -> Int {
        var accessTokens: [String: String] = [:]
        var prepared = 0
        while true {
            let batch = try await store.subjectsWithoutTransferSubject(limit: 100)
            if batch.isEmpty { return prepared }
            for identity in batch {
                let accessToken: String
                if let cached = accessTokens[identity.clientID] {
                    accessToken = cached
                } else {
                    accessToken = try await client.migrationAccessToken(clientID: identity.clientID).accessToken
                    accessTokens[identity.clientID] = accessToken
                }
                let transferSubject = try await client.transferSubject(
                    for: identity.subject, to: targetTeamID, clientID: identity.clientID, accessToken: accessToken
                )
                try await store.setTransferSubject(transferSubject, for: identity.subject)
                prepared += 1
            }
            logger.info("app transfer: transfer identifiers stored", metadata: ["count": "\(prepared)"])
        }
    }
}
