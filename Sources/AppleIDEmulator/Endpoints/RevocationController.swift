import Hummingbird
import JuiceEncodings
import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `POST /auth/revoke`: revoking a user's token ends the grant and every token under it, as at Apple.
struct RevocationController: Sendable {
    let validator: ClientSecretValidator
    let store: EmulatorStore
    let time: EmulatorTime

    var endpoints: RouteCollection<BasicRequestContext> {
        let router = RouteCollection(context: BasicRequestContext.self)
        router.post("/auth/revoke") { request, context in
            await HTTPExchange.answering(context) {
                let form = try await HTTPExchange.form(request)
                let (client, _) = try await validator.validate(secret: form["client_secret"], clientID: form["client_id"])
                guard let token = form.nonEmpty("token") else { throw OAuthError.invalidRequest("token is required") }
                if let hint = form.nonEmpty("token_type_hint"), hint != "refresh_token" && hint != "access_token" {
                    throw OAuthError.invalidRequest("token_type_hint must be refresh_token or access_token")
                }
                let now = time.now
                try await store.transaction { database in
                    // An unknown, foreign or already revoked token is answered 200 too.
                    guard let record = try await TokenRecord.find(token, in: database), record.clientID == client.clientID, record.revokedAt == nil
                    else {
                        return
                    }
                    if let email = record.email {
                        try await Grant.end(email: email, bundleID: record.bundleID, at: now, in: database)
                    } else {
                        try await database.raw(
                            "UPDATE tokens SET revoked_at = \(bind: now.timeIntervalSince1970) WHERE token_hash = \(bind: sha256Hex(token))"
                        ).run()
                    }
                }
                return Response(status: .ok, headers: [.cacheControl: "no-store"])
            }
        }
        return router
    }
}
