import JuiceEncodings
import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Issues authorization codes (and identity tokens) for web and device sign-ins, recording consent
/// on the first authorization of an app.
struct Authorizer: Sendable {
    let store: EmulatorStore
    let random: EmulatorRandom
    let time: EmulatorTime
    let tokens: IdentityTokenFactory
    /// Where new relay addresses are issued.
    let relayDomain: RelayDomain
    /// `relay_domain` failures: another domain for the new addresses of a client.
    let failures: FailureInjection

    /// Whether `account` has already authorized the app behind `client`.
    func hasGrant(_ account: EmulatorConfiguration.AppleID, client: RegisteredClient) async throws -> Bool {
        try await store.transaction { database in
            try await Grant.find(email: account.storageKey, bundleID: client.bundleID, in: database) != nil
        }
    }

    func authorize(
        client: RegisteredClient,
        account: EmulatorConfiguration.AppleID,
        scopes: [String],
        nonce: String?,
        redirectURI: String?,
        consent: ConsentChoices,
        device: Bool,
        includeIDToken: Bool
    ) async throws -> AuthorizationOutcome {
        let now = time.now
        let code = OpaqueToken.make(prefix: "c", random: random)
        let random = self.random
        let domain = newAddressDomain(for: client)
        let (subject, first) = try await store.transaction { database in
            let records = try await SignInRecords.read(email: account.storageKey, bundleID: client.bundleID, teamID: client.teamID, in: database)
            let teamUser = try await records.teamUser(
                orNewFor: account.storageKey, teamID: client.teamID, random: random, relayDomain: domain, in: database)
            var grant = records.grant
            let first = grant == nil
            if grant == nil {
                let created = Grant(
                    email: account.storageKey,
                    bundleID: client.bundleID,
                    firstName: Self.cleanName(consent.firstName) ?? account.firstName,
                    lastName: Self.cleanName(consent.lastName) ?? account.lastName,
                    // A Work & School account has no Hide My Email.
                    emailChoice: account.managed == nil ? consent.emailChoice ?? .share : .share,
                    createdAt: now
                )
                try await created.insert(in: database)
                grant = created
            }
            try await CodeRecord(
                clientID: client.clientID,
                redirectURI: redirectURI,
                email: account.storageKey,
                bundleID: client.bundleID,
                scopes: scopes,
                nonce: nonce,
                authTime: now,
                device: device,
                expiresAt: now.addingTimeInterval(CodeRecord.lifetime),
                usedAt: nil
            ).insert(code: code, in: database)
            let transferSubject = try await IdentitySubject.transferSubject(
                for: client, email: account.storageKey, now: now, random: random, in: database)
            let subject = IdentitySubject(
                client: client,
                teamUser: teamUser,
                grant: grant!,
                scopes: scopes,
                nonce: nonce,
                authTime: now,
                device: device,
                transferSubject: transferSubject,
                managed: records.managed
            )
            return (subject, first)
        }
        let idToken = includeIDToken ? try await tokens.token(for: subject, code: code) : nil
        return AuthorizationOutcome(code: code, idToken: idToken, firstAuthorization: first, subject: subject)
    }

    /// A trimmed name, or `nil` when empty (the Apple ID's own name is used then).
    static func cleanName(_ name: String?) -> String? {
        guard let trimmed = name?.trimmingWhitespace(), !trimmed.isEmpty else { return nil }
        return trimmed
    }
}

extension Authorizer {
    /// The relay address `account` has (or will have) with the client's team, to show on the consent page.
    func relayAddress(for account: EmulatorConfiguration.AppleID, client: RegisteredClient) async throws -> String {
        let random = self.random
        let domain = newAddressDomain(for: client)
        return try await store.transaction { database in
            try await TeamUser.ensure(email: account.storageKey, teamID: client.teamID, random: random, relayDomain: domain, in: database).relayEmail
        }
    }

    /// Where the client's new relay addresses are issued: a `relay_domain` failure's domain, or the configured one.
    private func newAddressDomain(for client: RegisteredClient) -> RelayDomain {
        failures.relayDomain(clientID: client.clientID) ?? relayDomain
    }
}
