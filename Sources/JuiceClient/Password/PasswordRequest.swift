import Foundation

/// A request for a saved password, as `ASAuthorizationPasswordRequest`: it offers the most recently saved
/// password credential for the provider's server, with or without the person.
public struct PasswordRequest: AuthorizationRequest {
    /// The provider that made the request.
    public let provider: PasswordProvider

    init(provider: PasswordProvider) {
        self.provider = provider
    }

    /// The most recently saved password credential for the server.
    /// - Throws: ``AuthorizationError/Code/notHandled`` when none is saved,
    ///   ``AuthorizationError/Code/failed`` when the store cannot be read.
    public func perform(interactive: Bool) async throws(AuthorizationError) -> AuthorizationCredential {
        let saved: [PasswordCredential]
        do throws(CredentialStoreError) {
            saved = try await provider.store.passwords(for: provider.server)
        } catch {
            throw .failed("cannot read the saved passwords: \(error.reason)")
        }
        guard let credential = saved.first else { throw .notHandled("no password is saved for \(provider.server.absoluteString)") }
        return .password(credential)
    }
}
