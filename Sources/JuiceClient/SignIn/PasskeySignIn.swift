import Foundation
import JuiceEncodings

/// Passkeys with a Juice server from this machine, through the AuthenticationServices-shaped API: the
/// server's options become a ``PlatformPublicKeyCredentialRegistrationRequest`` or
/// ``PlatformPublicKeyCredentialAssertionRequest`` that an ``AuthorizationController`` performs, and the
/// answer goes back to the server's passkey API.
///
/// The origin in `clientDataJSON` is the server URL's web origin (`scheme://host[:port]`): the server
/// accepts its public URL's origin, so the client must use the public URL.
///
/// ```swift
/// let passkeys = PasskeySignIn(server: api, store: store)
/// let added = try await passkeys.addPasskey(name: "Laptop", sessionToken: session.token)
/// let session = try await passkeys.signIn()   // later: no password, no browser
/// let created = try await passkeys.signUp(username: "zoe", passkeyName: "Laptop") // a new account, no password
/// ```
public struct PasskeySignIn: Sendable {
    /// The server.
    public let server: JuiceServerAPI
    /// Where the passkeys and the session are kept.
    public let store: CredentialStore
    /// Where new keys and credential ids come from.
    let random: RandomSource

    /// Passkeys with `server`, kept in `store`; `random` draws new keys (tests give a fixed one).
    public init(server: JuiceServerAPI, store: CredentialStore, random: RandomSource = .system) {
        self.server = server
        self.store = store
        self.random = random
    }

    /// The origin put in `clientDataJSON`: the server URL's `scheme://host[:port]`, lower case.
    public var origin: String {
        server.baseURL.webOrigin ?? server.baseURL.absoluteString
    }

    /// The provider for the passkeys of `relyingPartyIdentifier`, with the server's origin.
    public func provider(relyingPartyIdentifier: String) -> PlatformPublicKeyCredentialProvider {
        PlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingPartyIdentifier, store: store, origin: origin, random: random)
    }

    /// Creates a passkey, registers it with the server for the account of `sessionToken` and keeps its key.
    /// - Throws: ``JuiceServerError`` from the server (``JuiceServerError/Code/unauthorized`` for an ended
    ///   session), ``AuthorizationError`` from the authenticator
    ///   (``AuthorizationError/Code/matchedExcludedCredential`` when this machine already holds one of the
    ///   account's passkeys). A passkey the server refuses is removed from the store again.
    public func addPasskey(name: String?, sessionToken: String) async throws -> ServerPasskey {
        let options = try await server.beginPasskeyRegistration(sessionToken: sessionToken)
        let registration = try await makePasskey(options)
        do {
            return try await server.finishPasskeyRegistration(registration, name: name, sessionToken: sessionToken)
        } catch {
            // A passkey the server did not take would only ever be refused: forget it.
            try? await store.removePasskey(credentialID: registration.credentialID)
            throw error
        }
    }

    /// Creates an account with a passkey alone (the Account Creation API's shape: the server gives the
    /// challenge and the user id, the platform makes the passkey, the server creates the account): the
    /// passkey is made here and kept, the account `username` (or none) created with it, and the session
    /// saved as the other sign-ins save theirs.
    /// - Throws: ``JuiceServerError`` (`username_taken`, `invalid_username`, `rate_limited`, …; the
    ///   passkey is then forgotten again), ``AuthorizationError`` from the authenticator,
    ///   ``CredentialStoreError`` when the session cannot be saved.
    public func signUp(username: String?, passkeyName: String?) async throws -> ServerSession {
        let options = try await server.beginPasskeySignUp(username: username)
        let registration = try await makePasskey(options)
        let session: ServerSession
        do {
            session = try await server.finishPasskeySignUp(registration, userHandle: options.userID, username: username, name: passkeyName)
        } catch {
            try? await store.removePasskey(credentialID: registration.credentialID)
            throw error
        }
        try await store.saveSession(StoredSession(token: session.token, accountID: session.account.id), for: server.baseURL)
        return session
    }

    /// Signs in with a passkey saved here and saves the session, as the other sign-ins do.
    /// - Throws: ``AuthorizationError/Code/notHandled`` when no passkey of the server's RP ID is saved here;
    ///   ``JuiceServerError`` when the server refuses (`unknown_credential` for a passkey removed there,
    ///   `counter_regressed` for a copied one); ``CredentialStoreError`` when the session cannot be saved.
    public func signIn() async throws -> ServerSession {
        let options = try await server.beginPasskeySignIn()
        let request = options.assertionRequest(from: provider(relyingPartyIdentifier: options.relyingPartyIdentifier))
        let credential = try await Self.savedCredential(request)
        guard case .publicKeyCredentialAssertion(let assertion) = credential else {
            throw AuthorizationError.unknown("the assertion request returned another kind of credential")
        }
        let session = try await server.signInWithPasskey(assertion)
        try await store.saveSession(StoredSession(token: session.token, accountID: session.account.id), for: server.baseURL)
        return session
    }

    /// The credential a saved passkey gives for `request`, without asking the person.
    private static func savedCredential(
        _ request: PlatformPublicKeyCredentialAssertionRequest
    ) async throws(AuthorizationError) -> AuthorizationCredential {
        do throws(AuthorizationError) {
            return try await AuthorizationController(requests: [request]).performRequests(options: .preferImmediatelyAvailableCredentials).credential
        } catch {
            guard error.code == .notInteractive else { throw error }
            throw .notHandled("no passkey of \(request.relyingPartyIdentifier) is saved in \(request.provider.store.directory.path)")
        }
    }

    /// Makes a passkey here for the server's creation `options` (the platform authenticator, through
    /// ``AuthorizationController``) and keeps its key in the store.
    private func makePasskey(_ options: PasskeyCreationOptions) async throws -> PlatformPublicKeyCredentialRegistration {
        let request = options.registrationRequest(from: provider(relyingPartyIdentifier: options.relyingPartyIdentifier))
        guard
            case .publicKeyCredentialRegistration(let registration) = try await AuthorizationController(requests: [request]).performRequests()
                .credential
        else {
            throw AuthorizationError.unknown("the registration request returned another kind of credential")
        }
        return registration
    }
}
