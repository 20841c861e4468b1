import Hummingbird
import JuiceEncodings
import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `POST /auth/usermigrationinfo`: `sub` + `target` → `transfer_sub` (sending team), `transfer_sub` → `sub`
/// and email (receiving team). Requires `Authorization: Bearer` with a `user.migration` access token.
struct MigrationController: Sendable {
    let validator: ClientSecretValidator
    let directory: ClientDirectory
    let store: EmulatorStore
    let random: EmulatorRandom
    let time: EmulatorTime
    /// Where new relay addresses are issued.
    let relayDomain: RelayDomain

    struct Transfer: Encodable {
        let transferSub: String
        enum CodingKeys: String, CodingKey { case transferSub = "transfer_sub" }
    }

    struct Migrated: Encodable {
        let sub: String
        let email: String?
        let isPrivateEmail: Bool?
        enum CodingKeys: String, CodingKey {
            case sub, email
            case isPrivateEmail = "is_private_email"
        }
    }

    var endpoints: RouteCollection<BasicRequestContext> {
        let router = RouteCollection(context: BasicRequestContext.self)
        router.post("/auth/usermigrationinfo") { request, context in
            await HTTPExchange.answering(context) {
                let form = try await HTTPExchange.form(request)
                let (client, teamID) = try await validator.validate(
                    secret: form["client_secret"], clientID: form["client_id"], allowPreviousTeam: true)
                guard let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("bearer "),
                    case let bearer = authorization.dropFirst(7).trimmingHorizontalSpace(), !bearer.isEmpty
                else {
                    throw OAuthError.invalidRequest("Authorization: Bearer <user.migration access token> is required")
                }
                if let subject = form.nonEmpty("sub") {
                    return HTTPExchange.json(
                        try await transferSubject(for: subject, target: form["target"], bearer: bearer, client: client, teamID: teamID))
                }
                if let transferSubject = form.nonEmpty("transfer_sub") {
                    return HTTPExchange.json(try await migratedUser(transferSubject, bearer: bearer, client: client, teamID: teamID))
                }
                throw OAuthError.invalidRequest("send sub and target (sending team) or transfer_sub (receiving team)")
            }
        }
        return router
    }

    private func checkBearer(_ bearer: String, client: RegisteredClient, teamID: String, now: Date, in database: any SQLDatabase) async throws {
        guard let record = try await TokenRecord.find(bearer, in: database), record.kind == .migration, record.isUsable(at: now),
            record.clientID == client.clientID, record.teamID == teamID
        else {
            throw OAuthError.invalidClient("the bearer token is not a valid user.migration access token for this client and team")
        }
    }

    private func transferSubject(
        for subject: String, target: String?, bearer: String, client: RegisteredClient, teamID: String
    ) async throws -> Transfer {
        guard let target, directory.isTeam(target), target != teamID else {
            throw OAuthError.invalidRequest("target must be the id of the team the app is transferred to")
        }
        let now = time.now
        let random = self.random
        return try await store.transaction { database in
            try await checkBearer(bearer, client: client, teamID: teamID, now: now, in: database)
            guard let user = try await TeamUser.find(subject: subject, in: database), user.teamID == teamID else {
                throw OAuthError.invalidRequest("sub is not a user of this team")
            }
            return Transfer(
                transferSub: try await TransferSubject.ensure(email: user.email, from: teamID, to: target, now: now, random: random, in: database))
        }
    }

    private func migratedUser(_ transferSubject: String, bearer: String, client: RegisteredClient, teamID: String) async throws -> Migrated {
        let now = time.now
        let random = self.random
        return try await store.transaction { database in
            try await checkBearer(bearer, client: client, teamID: teamID, now: now, in: database)
            guard let row = try await database.raw("SELECT * FROM transfer_subs WHERE transfer_sub = \(bind: transferSubject)").first(),
                try row.decode(column: "to_team", as: String.self) == teamID
            else {
                throw OAuthError.invalidRequest("transfer_sub is not a transfer identifier for this team")
            }
            let email = try row.decode(column: "email", as: String.self)
            guard try await AppleIDDirectory.isActive(email: email, in: database) else {
                throw OAuthError.invalidGrant("the Apple ID no longer exists")
            }
            let user = try await TeamUser.ensure(email: email, teamID: teamID, random: random, relayDomain: relayDomain, in: database)
            let grant = try await Grant.find(email: email, bundleID: client.bundleID, in: database)
            // A Work & School account: the organization's address or none, and no is_private_email.
            if let managed = try await ManagedAccountRecord.find(email: email, in: database) {
                return Migrated(sub: user.subject, email: managed.workEmail, isPrivateEmail: nil)
            }
            let hidden = grant?.emailChoice == .hide
            return Migrated(sub: user.subject, email: hidden ? user.relayEmail : email, isPrivateEmail: hidden)
        }
    }
}
