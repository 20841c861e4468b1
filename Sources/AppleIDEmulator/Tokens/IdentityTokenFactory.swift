import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What an identity token is about.
struct IdentitySubject: Sendable {
    let client: RegisteredClient
    let teamUser: TeamUser
    let grant: Grant
    let scopes: [String]
    let nonce: String?
    let authTime: Date
    let device: Bool
    let transferSubject: String?
    /// Set for a Work & School account: its organization's address (or none) replaces the Apple ID's.
    var managed: ManagedAccountRecord? = nil

    /// The address the app sees (real or relay; a managed account's work address or none), when the
    /// email scope was granted.
    var email: String? {
        guard scopes.contains("email") else { return nil }
        if let managed { return managed.workEmail }
        return grant.emailChoice == .hide ? teamUser.relayEmail : grant.email
    }

    /// `is_private_email` as Apple sends it: absent for a managed account, which has no relay.
    var isPrivateEmail: String? {
        guard managed == nil, email != nil else { return nil }
        return grant.emailChoice == .hide ? "true" : "false"
    }

    /// Looks up the `transfer_sub` a transferred app's tokens carry for 60 days.
    static func transferSubject(
        for client: RegisteredClient, email: String, now: Date, random: EmulatorRandom, in database: any SQLDatabase
    ) async throws -> String? {
        guard client.isInTransferWindow(at: now), let previousTeamID = client.previousTeamID,
            try await TeamUser.find(email: email, teamID: previousTeamID, in: database) != nil
        else { return nil }
        return try await TransferSubject.ensure(email: email, from: previousTeamID, to: client.teamID, now: now, random: random, in: database)
    }
}

/// Builds and signs identity tokens.
struct IdentityTokenFactory: Sendable {
    /// How long an identity token lives (what Apple sends today).
    static let lifetime: TimeInterval = 86_400

    let signer: JWSSigner
    let address: EmulatorAddress
    let time: EmulatorTime
    /// `omit_email`: each token for an affected client counts one and carries no email claims.
    let failures: FailureInjection
    /// The forgeries installed for the token endpoint (``TokenForgery``): a client's tokens are forged while one is.
    let forgeries: TokenForgeries

    func token(for subject: IdentitySubject, code: String? = nil, accessToken: String? = nil) async throws -> String {
        let now = Int64(time.now.timeIntervalSince1970)
        var claims = IdentityTokenClaims(
            iss: address.issuer,
            aud: subject.client.clientID,
            exp: now + Int64(Self.lifetime),
            iat: now,
            sub: subject.teamUser.subject,
            authTime: Int64(subject.authTime.timeIntervalSince1970),
            nonceSupported: true
        )
        claims.cHash = code.map(Hashing.leftHalfHash)
        claims.atHash = accessToken.map(Hashing.leftHalfHash)
        if let email = subject.email, failures.take([.omitEmail], clientID: subject.client.clientID) == nil {
            claims.email = email
            claims.emailVerified = "true"
            claims.isPrivateEmail = subject.isPrivateEmail
        }
        claims.nonce = subject.nonce
        claims.realUserStatus = subject.device ? 2 : nil
        claims.transferSub = subject.transferSubject
        if let forgery = forgeries.forgery(clientID: subject.client.clientID) {
            return try await forgeries.sign(claims, with: forgery, keys: signer.keys)
        }
        return try await signer.sign(claims)
    }
}
