import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the fixture API does over HTTP, in process: Apple IDs, completed sign-ins, injected failures,
/// key rotation, forged tokens, and what Apple's endpoints saw. The conformance kit stages its cases with it.
extension AppleEngine {
    /// Adds an Apple ID (as `POST /emulator/admin/seed` does).
    package func addAppleID(email: String, firstName: String, lastName: String) async throws {
        let password = random.hex(bytes: 16)
        try await fixtures.seed(
            EmulatorConfiguration(
                teams: [], apps: [], appleIDs: [.init(email: email, password: password, firstName: firstName, lastName: lastName)]))
    }

    /// `appleID` signs in to `clientID` with the scopes name and email, as Apple's pages complete it after
    /// consent (the first time: a grant, sharing or hiding the email): a code and its identity token.
    /// - Parameters:
    ///   - redirectURI: The web sign-in's redirect URI; `nil` for a native (device) sign-in.
    ///   - nonce: The nonce the app asked for (a native app sends its SHA-256).
    package func signIn(
        appleID: String, clientID: String, redirectURI: String?, nonce: String?, hideEmail: Bool, device: Bool
    ) async throws -> StagedSignIn {
        guard let client = try await directory.client(clientID) else { throw EmulatorInternalError("\(clientID) is not a registered client") }
        guard let account = try await accounts.account(email: appleID) else { throw EmulatorInternalError("no such Apple ID") }
        let outcome = try await authorizer.authorize(
            client: client, account: account, scopes: ["name", "email"], nonce: nonce, redirectURI: redirectURI,
            consent: ConsentChoices(emailChoice: hideEmail ? .hide : .share), device: device, includeIDToken: true)
        guard let idToken = outcome.idToken else { throw EmulatorInternalError("no identity token was minted") }
        return StagedSignIn(
            code: outcome.code, idToken: idToken, user: outcome.userJSON, subject: outcome.subject.teamUser.subject, email: outcome.subject.email)
    }

    /// Puts a failure of `kind` in force (as `POST /emulator/admin/failures` does, without its bounds:
    /// the caller is the process itself).
    package func inject(
        _ kind: FailureKind, clientID: String? = nil, count: Int? = nil, delaySeconds: Double? = nil, status: Int? = nil,
        relayDomain: RelayDomain? = nil
    ) {
        _ = failures.add(kind: kind, clientID: clientID, count: count, delaySeconds: delaySeconds, status: status, relayDomain: relayDomain)
    }

    /// Clears every injected failure and every installed forgery.
    package func clearFailures() {
        failures.clear()
        forgeries.removeAll()
    }

    /// Rotates the signing key (the standby key, published ahead of use, signs from now on).
    /// - Returns: The id of the key that signs now.
    @discardableResult
    package func rotateKeys() async throws -> String {
        try await keys.rotate()
    }

    /// `token` (one the engine minted) forged as `forgery` says: the hook for tokens Apple would never mint.
    package func forge(_ token: String, with forgery: TokenForgery) async throws -> String {
        guard let claims = TokenForgery.claims(of: token) else { throw EmulatorInternalError("not a token the engine minted") }
        return try await forgery.sign(claims, keys: keys, random: random)
    }

    /// Every identity token the token endpoint mints for `clientID` is forged as `forgery` says, until
    /// ``clearFailures()`` (`nil`: no longer).
    package func forgeTokens(clientID: String, with forgery: TokenForgery?) {
        forgeries.set(forgery, clientID: clientID)
    }

    /// A server-to-server notification of `type` about `subject` to the app `bundleID`, signed as Apple
    /// signs it (or forged by `forgery`): the `payload` Apple posts.
    package func notification(
        type: String, subject: String, email: String?, bundleID: String, forgery: TokenForgery? = nil
    ) async throws -> String {
        let now = time.now
        var event = NotificationOutbox.Event(type: type, sub: subject, eventTime: Int64((now.timeIntervalSince1970 * 1000).rounded()))
        if type.hasPrefix("email-") {
            event.email = email
            event.isPrivateEmail = "true"
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let issuedAt = Int64(now.timeIntervalSince1970)
        let claims = NotificationDeliveryService.Claims(
            iss: address.issuer, aud: bundleID, iat: issuedAt, exp: issuedAt + 3600, jti: random.hex(bytes: 16),
            events: String(decoding: try encoder.encode(event), as: UTF8.self))
        guard let forgery else { return try await signer.sign(claims) }
        return try await forgeries.sign(claims, with: forgery, keys: keys)
    }

    /// The requests Apple's endpoints received, oldest first (the fixture API's request capture).
    package func requests() -> [CapturedRequest] {
        capture.list()
    }

    /// Whether `code` has been redeemed at the token endpoint.
    package func wasRedeemed(_ code: String) async throws -> Bool {
        try await store.read { try await CodeRecord.find(code, in: $0)?.usedAt != nil }
    }

    /// Whether a refresh or access token of `appleID` for the app `bundleID` has been revoked.
    package func hasRevokedToken(appleID: String, bundleID: String) async throws -> Bool {
        guard let issued = try await fixtures.issued(bundleID: bundleID) else { return false }
        return issued.tokens.contains { $0.appleID == appleID.lowercased() && $0.revokedAt != nil }
    }
}

extension AppleEngine {
    /// The `sub` `appleID` has (or will have) with the team of `clientID`: what Apple's notifications about it name.
    package func subject(appleID: String, clientID: String) async throws -> String {
        guard let client = try await directory.client(clientID) else { throw EmulatorInternalError("\(clientID) is not a registered client") }
        let random = self.random
        let domain = options.relayDomain
        return try await store.transaction { database in
            try await TeamUser.ensure(email: appleID.lowercased(), teamID: client.teamID, random: random, relayDomain: domain, in: database).subject
        }
    }
}
