import Hummingbird

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Failure injection under `/emulator/admin/failures` (admin token, JSON): `POST` adds a failure
/// (``FailureRequest``), `GET` lists those in force, `DELETE` clears them (`?id=` one of them).
/// `rotate_signing_key` is done at once and kept nowhere. A reset clears every failure.
struct FailureController: Sendable {
    let failures: FailureInjection
    let keys: SigningKeyRing
    let directory: ClientDirectory

    /// Registers the routes on the admin group (whose ``AdminRequestGuard`` has already checked each request).
    var endpoints: RouteCollection<BasicRequestContext> {
        let admin = RouteCollection(context: BasicRequestContext.self)
        admin.post("failures") { request, context in
            await HTTPExchange.answering(context) {
                let body = try await HTTPExchange.jsonData(request)
                let failure = try await FailureRequest.parse(body) { kind, clientID in
                    kind == .dropNotifications ? directory.app(bundleID: clientID) != nil : try await directory.client(clientID) != nil
                }
                if failure.kind == .rotateSigningKey {
                    return HTTPExchange.json(["result": "signing key rotated", "signing_key_id": try await keys.rotate()])
                }
                guard
                    let added = failures.add(
                        kind: failure.kind, clientID: failure.clientID, count: failure.count, delaySeconds: failure.delaySeconds,
                        status: failure.status, relayDomain: failure.relayDomain)
                else {
                    throw OAuthError.invalidRequest("at most \(FailureInjection.maximumInForce) failures may be in force; clear some first")
                }
                return HTTPExchange.json(added)
            }
        }
        admin.get("failures") { _, context in
            await HTTPExchange.answering(context) {
                HTTPExchange.json(["failures": failures.list])
            }
        }
        admin.delete("failures") { request, context in
            await HTTPExchange.answering(context) {
                let text = try HTTPExchange.query(request).nonEmpty("id")
                let id = text.flatMap { $0.count <= 18 ? Int($0) : nil }
                if text != nil, (id ?? 0) <= 0 { throw OAuthError.invalidRequest("id must be a positive integer") }
                let cleared = failures.clear(id: id)
                if id != nil, cleared == 0 {
                    throw OAuthError(code: "not_found", description: "no failure in force has this id", status: .notFound)
                }
                return HTTPExchange.json(["cleared": cleared])
            }
        }
        return admin
    }
}
