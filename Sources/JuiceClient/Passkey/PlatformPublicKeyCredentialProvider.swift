import Foundation

/// Creates passkey requests for one relying party, as `ASAuthorizationPlatformPublicKeyCredentialProvider`.
/// On Linux the passkeys are made and kept by ``SoftwareAuthenticator``: P-256 keys in the
/// ``CredentialStore`` (`passkeys.json`, mode 0600), the keychain's role.
///
/// The relying party's web origin goes into `clientDataJSON`, as iOS puts the associated domain's
/// `https` origin there for an app: by default `https://` and the RP ID; give `origin` when the
/// server's public URL is another (`http://127.0.0.1:8080` in development).
///
/// ```swift
/// let provider = PlatformPublicKeyCredentialProvider(relyingPartyIdentifier: "juice.example", store: store)
/// let request = provider.createCredentialAssertionRequest(challenge: challenge)
/// guard case .publicKeyCredentialAssertion(let assertion) = try await AuthorizationController(requests: [request])
///     .performRequests().credential else { return }
/// let session = try await api.signInWithPasskey(assertion)
/// ```
public struct PlatformPublicKeyCredentialProvider: Sendable {
    /// The RP ID the passkeys are bound to (a domain, e.g. `juice.example`).
    public let relyingPartyIdentifier: String
    /// The origin put in `clientDataJSON` (`https://juice.example`).
    public let origin: String
    /// Where the passkeys' keys are kept.
    public let store: CredentialStore
    /// Where new keys and credential ids come from.
    let random: RandomSource

    /// A provider for the passkeys of `relyingPartyIdentifier` kept in `store`; `origin` defaults to
    /// `https://` followed by the RP ID; `random` draws keys and credential ids (tests give a fixed one).
    public init(relyingPartyIdentifier: String, store: CredentialStore, origin: String? = nil, random: RandomSource = .system) {
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.origin = origin ?? "https://\(relyingPartyIdentifier)"
        self.store = store
        self.random = random
    }

    /// A request to create a passkey for the account `userID` (the relying party's user handle) named `name`.
    public func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data) -> PlatformPublicKeyCredentialRegistrationRequest {
        PlatformPublicKeyCredentialRegistrationRequest(provider: self, challenge: challenge, name: name, userID: userID)
    }

    /// A request to sign `challenge` with a saved passkey of the relying party.
    public func createCredentialAssertionRequest(challenge: Data) -> PlatformPublicKeyCredentialAssertionRequest {
        PlatformPublicKeyCredentialAssertionRequest(provider: self, challenge: challenge)
    }

    var authenticator: SoftwareAuthenticator { SoftwareAuthenticator(store: store, random: random) }
}
