import Foundation
import SQLKit

/// What the person chose on the consent step (or sent in one POST).
struct ConsentChoices: Sendable {
    var firstName: String?
    var lastName: String?
    var emailChoice: EmailChoice?
}

/// The result of an authorization: a code, maybe an identity token, and on the first authorization
/// the once-only user information.
struct AuthorizationOutcome: Sendable {
    let code: String
    let idToken: String?
    let firstAuthorization: Bool
    let subject: IdentitySubject

    /// The `user` JSON string Apple sends on the first authorization: only the requested scopes.
    var userJSON: String? {
        guard firstAuthorization, let user = userInfo else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(user)).flatMap { String(decoding: $0, as: UTF8.self) }
    }

    struct UserInfo: Encodable, Sendable {
        struct Name: Encodable, Sendable {
            let firstName: String
            let lastName: String
        }

        let name: Name?
        let email: String?
    }

    /// The once-only information, when any scope was granted.
    var userInfo: UserInfo? {
        let name = subject.scopes.contains("name") ? UserInfo.Name(firstName: subject.grant.firstName, lastName: subject.grant.lastName) : nil
        let email = subject.email
        return name == nil && email == nil ? nil : UserInfo(name: name, email: email)
    }
}

/// Issues authorization codes (and identity tokens) for web and device sign-ins, recording consent
/// on the first authorization of an app.
struct Authorizer: Sendable {
    let store: EmulatorStore
    let random: EmulatorRandom
    let time: EmulatorTime
    let tokens: IdentityTokenFactory

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
        let code = Credential.make(prefix: "c", random: random)
        let random = self.random
        let (subject, first) = try await store.transaction { database in
            let teamUser = try await TeamUser.ensure(email: account.storageKey, teamID: client.teamID, random: random, in: database)
            var grant = try await Grant.find(email: account.storageKey, bundleID: client.bundleID, in: database)
            let first = grant == nil
            if grant == nil {
                let created = Grant(
                    email: account.storageKey,
                    bundleID: client.bundleID,
                    firstName: Self.cleanName(consent.firstName) ?? account.firstName,
                    lastName: Self.cleanName(consent.lastName) ?? account.lastName,
                    emailChoice: consent.emailChoice ?? .share,
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
            let transferSubject = try await IdentitySubject.transferSubject(for: client, email: account.storageKey, now: now, random: random, in: database)
            let subject = IdentitySubject(
                client: client,
                teamUser: teamUser,
                grant: grant!,
                scopes: scopes,
                nonce: nonce,
                authTime: now,
                device: device,
                transferSubject: transferSubject
            )
            return (subject, first)
        }
        let idToken = includeIDToken ? try await tokens.token(for: subject, code: code) : nil
        return AuthorizationOutcome(code: code, idToken: idToken, firstAuthorization: first, subject: subject)
    }

    /// A trimmed name, or `nil` when empty (the Apple ID's own name is used then).
    static func cleanName(_ name: String?) -> String? {
        guard let trimmed = name?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }
}

extension Authorizer {
    /// The relay address `account` has (or will have) with the client's team, to show on the consent page.
    func relayAddress(for account: EmulatorConfiguration.AppleID, client: RegisteredClient) async throws -> String {
        let random = self.random
        return try await store.transaction { database in
            try await TeamUser.ensure(email: account.storageKey, teamID: client.teamID, random: random, in: database).relayEmail
        }
    }
}
