import AppleSignIn
import Crypto
import Foundation
import JuiceEncodings
import WebAuthn

/// The server's two passkey ceremonies: options with a stored challenge to begin, verification,
/// storage and (for authentication) a new session to finish. The web pages and the native API both
/// call these; neither verifies anything itself.
struct PasskeyCeremonies: Sendable {
    /// `PublicKeyCredentialCreationOptions` as JSON (WebAuthn §5.4), byte strings as base64url.
    struct RegistrationOptions: Codable, Sendable {
        struct RelyingParty: Codable, Sendable {
            var id: String
            var name: String
        }
        struct User: Codable, Sendable {
            var id: String
            var name: String
            var displayName: String
        }
        struct Parameter: Codable, Sendable {
            var type = "public-key"
            var alg: Int
        }
        struct Selection: Codable, Sendable {
            var residentKey = "required"
            var requireResidentKey = true
            var userVerification: String
        }
        var challenge: String
        var rp: RelyingParty
        var user: User
        var pubKeyCredParams: [Parameter]
        var timeout: Int
        var excludeCredentials: [CredentialDescriptor]
        var authenticatorSelection: Selection
        var attestation = "none"
    }

    /// `PublicKeyCredentialRequestOptions` as JSON (WebAuthn §5.5): no allow list, so the
    /// authenticator offers its discoverable credentials for the RP ID.
    struct AuthenticationOptions: Codable, Sendable {
        var challenge: String
        var rpId: String
        var timeout: Int
        var userVerification: String
        var allowCredentials: [CredentialDescriptor] = []
    }

    /// `PublicKeyCredentialDescriptor` as JSON.
    struct CredentialDescriptor: Codable, Sendable {
        var type = "public-key"
        var id: String
        var transports: [String]?
    }

    /// The transports WebAuthn defines; anything else a client reports is dropped.
    static let knownTransports: Set<String> = ["usb", "nfc", "ble", "smart-card", "hybrid", "internal"]
    let relyingParty: PasskeyRelyingParty
    /// The name browsers show for the site.
    let relyingPartyName: String
    let store: PasskeyStore
    /// A verified sign-in's writes (challenge, counter, session) in one transaction.
    let signIns: PasskeySignInTransaction
    /// Where a refused answer's challenge is spent on its own (`spent_values`); a sign-in spends it in its transaction.
    let authorizations: AuthorizationStore
    /// The sign-in challenges: minted, not stored (see ``beginAuthentication()``).
    let signInChallenges: MintedValues
    let tokens: SessionTokens
    let time: TimeSource
    let random: ServerRandom
    /// How long a challenge may wait for its answer.
    var challengeLifetime: TimeInterval { signInChallenges.lifetime }
    /// Counts passkey sign-ins by outcome (`juice_sign_ins_total{method="passkey"}`).
    let metrics: SignInMetrics

    /// Begins adding a passkey to `account`: a stored challenge bound to it, and options that exclude
    /// the passkeys it already has.
    /// With `conditionalFor`, the challenge is an automatic upgrade's, bound to that session too.
    func beginRegistration(account: Account, conditionalFor sessionID: String? = nil) async throws -> RegistrationOptions {
        let handle = try await store.userHandle(accountID: account.id, candidate: random.bytes(32))
        let existing = try await store.credentials(accountID: account.id)
        let challenge = try await issueChallenge(
            sessionID == nil ? .registration : .conditionalRegistration, accountID: account.id, sessionID: sessionID)
        let label = account.username ?? account.email ?? "Account \(account.id.prefix(8))"
        let displayName = [account.givenName, account.familyName].compactMap { $0 }.joined(separator: " ")
        return registrationOptions(
            challenge: challenge, userHandle: handle, name: label, displayName: displayName.isEmpty ? label : displayName, excluding: existing)
    }

    /// Creation options for `challenge`, naming the user as the authenticator will store it.
    func registrationOptions(
        challenge: [UInt8], userHandle: [UInt8], name: String, displayName: String, excluding existing: [PasskeyCredential]
    ) -> RegistrationOptions {
        RegistrationOptions(
            challenge: Base64URL.encode(challenge), rp: .init(id: relyingParty.id, name: relyingPartyName),
            user: .init(id: Base64URL.encode(userHandle), name: name, displayName: displayName),
            pubKeyCredParams: relyingParty.requirements.algorithms.map { .init(alg: $0.rawValue) }, timeout: timeoutMilliseconds,
            excludeCredentials: existing.map {
                .init(id: Base64URL.encode($0.credentialID), transports: $0.transports.isEmpty ? nil : $0.transports)
            },
            authenticatorSelection: .init(userVerification: relyingParty.requirements.userVerification.rawValue))
    }

    /// The name a new passkey is stored under: trimmed of spaces, "Passkey" when empty, cut to
    /// ``StoredTextRule/name``'s length (64 Unicode scalars, 256 bytes); a control character is refused
    /// (400 `invalid_text`), before the challenge is spent.
    static func registrationName(_ name: String?) throws(StoredTextViolation) -> String {
        let trimmed = StoredTextRule.trimmingSpaces(name ?? "")
        try StoredTextRule.checkCharacters(trimmed)
        return trimmed.isEmpty ? "Passkey" : StoredTextRule.name.sanitized(trimmed)
    }

    /// The passkey to store from a verified registration: the transports WebAuthn knows, the name as
    /// ``registrationName(_:)`` made it, the time in whole seconds.
    func credential(
        _ verified: VerifiedRegistration, accountID: String, userHandle: [UInt8], transports: [String], storedName: String, at now: Date
    ) -> PasskeyCredential {
        PasskeyCredential(
            credentialID: verified.credentialID, accountID: accountID, userHandle: userHandle, publicKey: verified.publicKey,
            algorithm: verified.algorithm, signCount: verified.signCount,
            transports: Array(Set(transports).intersection(Self.knownTransports)).sorted(),
            backupEligible: verified.backupEligible, backedUp: verified.backedUp,
            name: storedName,
            createdAt: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)), lastUsedAt: nil, aaguid: verified.aaguid)
    }

    /// Finishes adding a passkey to `accountID`: the challenge must be one issued to that account.
    func finishRegistration(
        accountID: String, response: RegistrationResponse, transports: [String], name: String?
    ) async throws -> PasskeyCredential {
        let storedName = try Self.registrationName(name)
        let now = time.now
        let challenge = try await consumeChallenge(named: response.clientData, purpose: .registration, now: now)
        guard challenge.accountID == accountID else {
            throw PasskeyError(.challengeUnknown, "the challenge was issued to another session's account")
        }
        let verified = try relyingParty.verifyRegistration(response, challenge: challenge.challenge)
        let handle = try await store.userHandle(accountID: accountID, candidate: random.bytes(32))
        let credential = self.credential(
            verified, accountID: accountID, userHandle: handle, transports: transports, storedName: storedName, at: now)
        try await store.add(credential)
        return credential
    }

    /// Begins a passkey sign-in. Its challenge is a ``MintedValues`` value (random, expiry, tag), not a
    /// stored row: this needs no session, so it must not let anyone fill a table (as
    /// ``NativeNonces``). An answer naming a registered passkey spends it.
    func beginAuthentication() -> AuthenticationOptions {
        let challenge = signInChallenges.mint()
        return AuthenticationOptions(
            challenge: Base64URL.encode(challenge), rpId: relyingParty.id, timeout: timeoutMilliseconds,
            userVerification: relyingParty.requirements.userVerification.rawValue)
    }

    /// Finishes a passkey sign-in: checks the assertion against the stored passkey, records its
    /// counter (refusing a regression, also one lost to a concurrent sign-in) and starts a session.
    func finishAuthentication(_ response: AuthenticationResponse) async throws -> (token: String, account: Account, session: Session) {
        do {
            let outcome = try await authenticate(response)
            metrics.record(.passkey, outcome: "success")
            return outcome
        } catch let error as any ServerErrorConvertible {
            metrics.record(.passkey, outcome: error.serverError.code.rawValue)
            throw error
        }
    }

    private func authenticate(_ response: AuthenticationResponse) async throws -> (token: String, account: Account, session: Session) {
        let now = time.now
        let challenge = response.clientData.challenge
        switch signInChallenges.check(challenge) {
        case .valid: break
        case .forged: throw PasskeyError(.challengeUnknown, "the challenge was not issued by this server for a sign-in")
        case .expired: throw PasskeyError(.challengeExpired, "the challenge's time is over")
        }
        guard let credential = try await store.credential(id: response.credentialID) else {
            throw PasskeyError(.unknownCredential, "no account has this passkey")
        }
        let spentValueID = Self.spentValueID(challenge: challenge)
        let verified: VerifiedAuthentication
        do {
            verified = try relyingParty.verifyAuthentication(response, challenge: challenge, credential: credential.registered)
        } catch {
            // An answer is tried once, whatever its outcome: a refused one spends its challenge too, and
            // a replay is told as one (not as the counter regression it would also be).
            guard try await !authorizations.spend([spentValueID], at: now).isEmpty else {
                throw PasskeyError(.challengeUnknown, "the challenge was used")
            }
            throw error
        }
        // One transaction: the challenge spent, the counter recorded and the session started, or none of them.
        let (token, draft) = tokens.issue(.passkey)
        let account: Account
        do {
            account = try await signIns.run(
                PasskeySignInRecord(
                    credentialID: credential.credentialID, accountID: credential.accountID, previousSignCount: credential.signCount,
                    signCount: verified.signCount, backedUp: verified.backedUp, challengeSpentValueID: spentValueID, session: draft, at: now))
        } catch let error as PasskeyError where error.code != .challengeUnknown {
            // Refused inside the transaction (the counter moved, the passkey or its account is gone): the
            // rollback took the spend back, so the challenge is spent on its own, as for any refused answer.
            _ = try await authorizations.spend([spentValueID], at: now)
            throw error
        }
        return (token, account, draft.session(accountID: credential.accountID))
    }

    var timeoutMilliseconds: Int { Int(challengeLifetime * 1000) }

    /// What `spent_values` keeps of a spent sign-in challenge: its SHA-256, marked so that it never
    /// equals a code's or a nonce's key.
    static func spentValueID(challenge: [UInt8]) -> String {
        "passkey:" + SHA256.hash(data: challenge).hexString
    }

    private func issueChallenge(_ purpose: PasskeyChallenge.Purpose, accountID: String, sessionID: String?) async throws -> [UInt8] {
        let now = time.now
        let challenge = random.bytes(32)
        try await store.saveChallenge(
            PasskeyChallenge(
                challenge: challenge, purpose: purpose, accountID: accountID, sessionID: sessionID, createdAt: now,
                expiresAt: now.addingTimeInterval(challengeLifetime)))
        return challenge
    }

    /// The stored challenge that the client data names, taken out of the store.
    func consumeChallenge(named clientData: ClientData, purpose: PasskeyChallenge.Purpose, now: Date) async throws -> PasskeyChallenge {
        try await store.consumeChallenge(clientData.challenge, purpose: purpose, now: now)
    }
}
