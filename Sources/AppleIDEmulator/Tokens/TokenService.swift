import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The grants of `/auth/token`: authorization code, refresh token, and client credentials for user migration.
struct TokenService: Sendable {
    /// How long access tokens live.
    static let accessTokenLifetime: TimeInterval = 3600

    let store: EmulatorStore
    let random: EmulatorRandom
    let time: EmulatorTime
    let tokens: IdentityTokenFactory
    /// Where new relay addresses are issued (a transferred app's users get new ones).
    let relayDomain: RelayDomain

    /// `grant_type=authorization_code`: single use, five minutes, bound to its client and to the redirect URI it was issued for (`CodeRedirectRule`).
    func exchangeCode(_ code: String?, redirectURI: String?, client: RegisteredClient) async throws -> TokenResponseBody {
        guard let code, !code.isEmpty else { throw OAuthError.invalidRequest("code is required") }
        let now = time.now
        let random = self.random
        let refreshToken = OpaqueToken.make(prefix: "r", random: random)
        let accessToken = OpaqueToken.make(prefix: "a", random: random)
        let subject = try await store.transaction { database in
            // Marked used as it is read; a refusal below throws, and the rollback leaves it as it was.
            guard let record = try await CodeRecord.claim(code, at: now, in: database) else {
                let used = try await CodeRecord.find(code, in: database) != nil
                throw OAuthError.invalidGrant(used ? "the code has already been used" : "the code is not valid")
            }
            guard record.expiresAt > now else { throw OAuthError.invalidGrant("the code has expired") }
            guard record.clientID == client.clientID else { throw OAuthError.invalidGrant("the code was issued to another client") }
            if let problem = CodeRedirectRule.problem(issuedWith: record.redirectURI, presented: redirectURI) {
                throw OAuthError.invalidGrant(problem)
            }
            let subject = try await Self.subject(
                email: record.email, client: client, scopes: record.scopes, nonce: record.nonce, authTime: record.authTime,
                device: record.device, now: now, random: random, relayDomain: relayDomain, in: database
            )
            let issued = [
                (refreshToken, TokenRecord.Kind.refresh, nil), (accessToken, .access, now.addingTimeInterval(Self.accessTokenLifetime)),
            ].map { token, kind, expiry in
                (
                    token: token,
                    record: TokenRecord(
                        kind: kind, clientID: client.clientID, email: record.email, bundleID: client.bundleID, teamID: client.teamID,
                        scopes: record.scopes, authTime: record.authTime, device: record.device, expiresAt: expiry, revokedAt: nil
                    )
                )
            }
            try await TokenRecord.insert(issued, now: now, in: database)
            return subject
        }
        let idToken = try await tokens.token(for: subject, accessToken: accessToken)
        return TokenResponseBody(accessToken: accessToken, refreshToken: refreshToken, idToken: idToken)
    }

    /// `grant_type=refresh_token`: a new access token and identity token; no new refresh token.
    func refresh(_ refreshToken: String?, client: RegisteredClient) async throws -> TokenResponseBody {
        guard let refreshToken, !refreshToken.isEmpty else { throw OAuthError.invalidRequest("refresh_token is required") }
        let now = time.now
        let random = self.random
        let accessToken = OpaqueToken.make(prefix: "a", random: random)
        let subject = try await store.transaction { database in
            guard let record = try await TokenRecord.find(refreshToken, in: database), record.kind == .refresh, let email = record.email else {
                throw OAuthError.invalidGrant("the refresh token is not valid")
            }
            guard record.isUsable(at: now) else { throw OAuthError.invalidGrant("the refresh token has been revoked") }
            guard record.clientID == client.clientID else { throw OAuthError.invalidGrant("the refresh token was issued to another client") }
            let subject = try await Self.subject(
                email: email, client: client, scopes: record.scopes, nonce: nil, authTime: record.authTime ?? now,
                device: record.device, now: now, random: random, relayDomain: relayDomain, in: database
            )
            try await TokenRecord.insert(
                accessToken,
                TokenRecord(
                    kind: .access, clientID: client.clientID, email: email, bundleID: client.bundleID, teamID: client.teamID,
                    scopes: record.scopes, authTime: record.authTime, device: record.device,
                    expiresAt: now.addingTimeInterval(Self.accessTokenLifetime), revokedAt: nil
                ),
                now: now,
                in: database
            )
            return subject
        }
        let idToken = try await tokens.token(for: subject, accessToken: accessToken)
        return TokenResponseBody(accessToken: accessToken, idToken: idToken)
    }

    /// `grant_type=client_credentials` with `scope=user.migration`: an access token for `/auth/usermigrationinfo`.
    func migrationToken(scope: String?, client: RegisteredClient, teamID: String) async throws -> TokenResponseBody {
        guard scope == "user.migration" else { throw OAuthError.invalidScope("client_credentials requires scope=user.migration") }
        let now = time.now
        let accessToken = OpaqueToken.make(prefix: "a", random: random)
        try await store.transaction { database in
            try await TokenRecord.insert(
                accessToken,
                TokenRecord(
                    kind: .migration, clientID: client.clientID, email: nil, bundleID: client.bundleID, teamID: teamID,
                    scopes: ["user.migration"], authTime: nil, device: false,
                    expiresAt: now.addingTimeInterval(Self.accessTokenLifetime), revokedAt: nil
                ),
                now: now,
                in: database
            )
        }
        return TokenResponseBody(accessToken: accessToken)
    }

    /// The subject of a token for an Apple ID whose consent must still stand.
    private static func subject(
        email: String, client: RegisteredClient, scopes: [String], nonce: String?, authTime: Date, device: Bool,
        now: Date, random: EmulatorRandom, relayDomain: RelayDomain, in database: any SQLDatabase
    ) async throws -> IdentitySubject {
        let records = try await SignInRecords.read(email: email, bundleID: client.bundleID, teamID: client.teamID, in: database)
        guard records.active, let grant = records.grant else {
            throw OAuthError.invalidGrant("the user has revoked the authorization or deleted the Apple ID")
        }
        let teamUser = try await records.teamUser(
            orNewFor: email, teamID: client.teamID, random: random, relayDomain: relayDomain, in: database)
        let transferSubject = try await IdentitySubject.transferSubject(for: client, email: email, now: now, random: random, in: database)
        return IdentitySubject(
            client: client, teamUser: teamUser, grant: grant, scopes: scopes, nonce: nonce, authTime: authTime, device: device,
            transferSubject: transferSubject, managed: records.managed
        )
    }
}
