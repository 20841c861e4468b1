import Hummingbird

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The admin JSON endpoints under `/emulator/admin/`, for tests and scripts. ``AdminRequestGuard`` checks
/// every request first: the `admin_token` when there is one; otherwise a loopback `Host` and, for a
/// request that changes state, `application/json`.
struct AdminController: Sendable {
    let adminToken: String?
    let address: EmulatorAddress
    let actions: AccountActions
    let keys: SigningKeyRing
    let inbox: MailInbox
    let policy: OrganizationPolicy
    /// The fixture API, registered on the same group (and behind the same checks).
    let fixtures: FixtureController
    /// Failure injection (`failures`) and request capture (`requests`), on the same group.
    let failures: FailureController
    let requests: RequestCaptureController

    struct RevokeConsent: Decodable {
        let appleID: String
        let clientID: String
        enum CodingKeys: String, CodingKey {
            case appleID = "apple_id"
            case clientID = "client_id"
        }
    }

    struct SetForwarding: Decodable {
        let appleID: String
        let teamID: String
        let enabled: Bool
        enum CodingKeys: String, CodingKey {
            case appleID = "apple_id"
            case teamID = "team_id"
            case enabled
        }
    }

    struct DeleteAppleID: Decodable {
        let appleID: String
        enum CodingKeys: String, CodingKey { case appleID = "apple_id" }
    }

    struct TransferApp: Decodable {
        let bundleID: String
        let toTeamID: String
        enum CodingKeys: String, CodingKey {
            case bundleID = "bundle_id"
            case toTeamID = "to_team_id"
        }
    }

    struct SetOrganizationBlock: Decodable {
        let appleID: String
        let bundleID: String
        let blocked: Bool
        enum CodingKeys: String, CodingKey {
            case appleID = "apple_id"
            case bundleID = "bundle_id"
            case blocked
        }
    }

    struct SendTestNotification: Decodable {
        let appleID: String
        let bundleID: String
        enum CodingKeys: String, CodingKey {
            case appleID = "apple_id"
            case bundleID = "bundle_id"
        }
    }

    var endpoints: RouteCollection<BasicRequestContext> {
        let router = RouteCollection(context: BasicRequestContext.self)
        let admin = router.group("emulator/admin").add(middleware: AdminRequestGuard(adminToken: adminToken, address: address))
        admin.addRoutes(fixtures.endpoints)
        admin.addRoutes(failures.endpoints)
        admin.addRoutes(requests.endpoints)
        admin.post("revoke-consent") { request, context in
            await handle(request, context, RevokeConsent.self) { body in
                try await actions.revokeConsent(appleID: body.appleID, clientID: body.clientID)
                return ["result": "consent revoked"]
            }
        }
        admin.post("set-email-forwarding") { request, context in
            await handle(request, context, SetForwarding.self) { body in
                try await actions.setEmailForwarding(appleID: body.appleID, teamID: body.teamID, enabled: body.enabled)
                return ["result": body.enabled ? "forwarding enabled" : "forwarding disabled"]
            }
        }
        admin.post("delete-apple-id") { request, context in
            await handle(request, context, DeleteAppleID.self) { body in
                try await actions.deleteAppleID(body.appleID)
                return ["result": "Apple ID deleted"]
            }
        }
        admin.post("transfer-app") { request, context in
            await handle(request, context, TransferApp.self) { body in
                try await actions.transferApp(bundleID: body.bundleID, toTeamID: body.toTeamID)
                return ["result": "app transferred"]
            }
        }
        admin.post("set-organization-block") { request, context in
            await handle(request, context, SetOrganizationBlock.self) { body in
                guard actions.directory.app(bundleID: body.bundleID) != nil else {
                    throw AccountActions.Failure.notFound("bundle_id is not a registered app")
                }
                try await policy.setBlocked(email: body.appleID.lowercased(), bundleID: body.bundleID, blocked: body.blocked)
                return ["result": body.blocked ? "app blocked by the organization" : "app allowed by the organization"]
            }
        }
        admin.post("rotate-keys") { request, context in
            await HTTPExchange.answering(context) {
                let keyID = try await keys.rotate()
                return HTTPExchange.json(["signing_key_id": keyID])
            }
        }
        admin.get("notifications") { request, context in
            await HTTPExchange.answering(context) {
                let appleID = try HTTPExchange.query(request)["apple_id"]?.lowercased()
                let notifications = try await actions.store.transaction { try await OutboxEntry.list(appleID: appleID, in: $0) }
                return HTTPExchange.json(["notifications": notifications])
            }
        }
        admin.get("notifications/attempts") { request, context in
            await HTTPExchange.answering(context) {
                let query = try HTTPExchange.query(request)
                let appleID = query.nonEmpty("apple_id")?.lowercased()
                let text = query.nonEmpty("notification_id")
                let notificationID = text.flatMap { $0.count <= 18 ? Int($0) : nil }
                if text != nil, (notificationID ?? 0) <= 0 {
                    throw OAuthError.invalidRequest("notification_id must be a positive integer")
                }
                let attempts = try await actions.store.read {
                    try await NotificationDeliveryLog.list(appleID: appleID, notificationID: notificationID, in: $0)
                }
                return HTTPExchange.json(["attempts": attempts])
            }
        }
        admin.post("send-test-notification") { request, context in
            await handle(request, context, SendTestNotification.self) { body in
                let id = try await actions.sendTestNotification(appleID: body.appleID, bundleID: body.bundleID)
                return ["result": "test notification queued", "notification_id": String(id)]
            }
        }
        admin.get("mail") { request, context in
            await HTTPExchange.answering(context) {
                guard let appleID = try HTTPExchange.query(request).nonEmpty("apple_id") else {
                    throw OAuthError.invalidRequest("apple_id is required")
                }
                return HTTPExchange.json(["messages": try await inbox.messages(appleID: appleID)])
            }
        }
        admin.get("mail/refused") { request, context in
            await HTTPExchange.answering(context) {
                let appleID = try HTTPExchange.query(request).nonEmpty("apple_id")
                return HTTPExchange.json(["refused": try await inbox.refusals(appleID: appleID)])
            }
        }
        admin.get("mail/{id}") { request, context in
            await HTTPExchange.answering(context) {
                let id = context.parameters.get("id") ?? ""
                guard id.count <= 64, let message = try await inbox.message(id: id) else {
                    throw OAuthError(code: "not_found", description: "no relayed message has this id", status: .notFound)
                }
                return HTTPExchange.json(message)
            }
        }
        return router
    }

    private func handle<Body: Decodable>(
        _ request: Request,
        _ context: BasicRequestContext,
        _ type: Body.Type,
        _ perform: @escaping @Sendable (Body) async throws -> [String: String]
    ) async -> Response {
        await HTTPExchange.answering(context) {
            let body = try await HTTPExchange.json(request, as: Body.self)
            do {
                return HTTPExchange.json(try await perform(body))
            } catch AccountActions.Failure.notFound(let reason) {
                throw OAuthError(code: "not_found", description: reason, status: .notFound)
            } catch AccountActions.Failure.invalid(let reason) {
                throw OAuthError.invalidRequest(reason)
            }
        }
    }
}
