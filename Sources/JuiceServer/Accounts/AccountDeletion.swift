import AppleSignIn
import Hummingbird
import Logging

/// Deletes an account as Apple requires: the Apple refresh token is revoked first, then the
/// account, its Apple ID, password and sessions are deleted in one transaction.
///
/// When Apple cannot be reached nothing is deleted and the caller gets `apple_unavailable`, so a
/// revocation is never silently dropped (a durable retry queue is the next step).
public struct AccountDeletion: Sendable {
    let accounts: any AccountRepository
    let client: AppleIDClient
    let cipher: RefreshTokenCipher

    public init(accounts: any AccountRepository, client: AppleIDClient, cipher: RefreshTokenCipher) {
        self.accounts = accounts
        self.client = client
        self.cipher = cipher
    }

    /// Revokes at Apple, then deletes.
    /// - Throws: ``ServerError`` `apple_unavailable` when the revocation cannot be made.
    public func delete(accountID: String, logger: Logger) async throws {
        if let credential = try await accounts.appleCredential(accountID: accountID), let sealed = credential.sealedRefreshToken {
            let refreshToken: String
            do {
                refreshToken = try cipher.open(sealed, subject: credential.subject)
            } catch {
                logger.error("a stored refresh token cannot be opened; is the refresh-token key the one it was sealed with?")
                throw ServerError.internalError()
            }
            do {
                try await client.revoke(refreshToken, hint: .refreshToken, clientID: credential.clientID)
            } catch {
                logger.warning("revocation at Apple failed; account kept", metadata: ["error": "\(error.code)"])
                throw ServerError(
                    .appleUnavailable, status: .serviceUnavailable, "Apple cannot be reached to revoke your Apple ID's access; try again shortly")
            }
        }
        _ = try await accounts.deleteAccount(id: accountID)
    }
}
