import Hummingbird

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The fixture API under `/emulator/admin/` (admin token, JSON): reset to the configured state, seed
/// Apple IDs, teams and apps, read, set or advance the emulator's clock, and list what was issued per app.
struct FixtureController: Sendable {
    let fixtures: FixtureActions

    struct ClockChange: Decodable {
        let set: Double?
        let advance: Double?
    }

    struct ClockState: Encodable {
        let now: Int64
        let offset: Int64
    }

    /// Registers the routes on the admin group (whose ``AdminRequestGuard`` has already checked each request).
    var endpoints: RouteCollection<BasicRequestContext> {
        let admin = RouteCollection(context: BasicRequestContext.self)
        admin.post("reset") { request, context in
            await HTTPExchange.answering(context) {
                _ = try await HTTPExchange.jsonData(request)
                try await fixtures.reset()
                return HTTPExchange.json(["result": "reset to the configured state"])
            }
        }
        admin.post("seed") { request, context in
            await HTTPExchange.answering(context) {
                let body = try await HTTPExchange.jsonData(request)
                do {
                    try await fixtures.seed(try EmulatorConfiguration(seedJSON: body))
                } catch let error as EmulatorConfigurationError {
                    throw OAuthError.invalidRequest(error.reason)
                }
                return HTTPExchange.json(["result": "seeded"])
            }
        }
        admin.get("clock") { request, context in
            await HTTPExchange.answering(context) {
                return HTTPExchange.json(state)
            }
        }
        admin.post("clock") { request, context in
            await HTTPExchange.answering(context) {
                let change = try await HTTPExchange.json(request, as: ClockChange.self)
                do {
                    switch (change.set, change.advance) {
                    case (let moment?, nil): try fixtures.clock.set(to: moment)
                    case (nil, let seconds?): try fixtures.clock.advance(by: seconds)
                    default: throw OAuthError.invalidRequest("give exactly one of set (Unix seconds) or advance (seconds)")
                    }
                } catch let error as EmulatorClockError {
                    throw OAuthError.invalidRequest(error.reason)
                }
                return HTTPExchange.json(state)
            }
        }
        admin.get("issued") { request, context in
            await HTTPExchange.answering(context) {
                guard let bundleID = try HTTPExchange.query(request).nonEmpty("bundle_id"), bundleID.count <= 255 else {
                    throw OAuthError.invalidRequest("bundle_id is required")
                }
                guard let issued = try await fixtures.issued(bundleID: bundleID) else {
                    throw OAuthError(code: "not_found", description: "bundle_id is not a registered app", status: .notFound)
                }
                return HTTPExchange.json(issued)
            }
        }
        return admin
    }

    private var state: ClockState {
        ClockState(now: Int64(fixtures.clock.now.timeIntervalSince1970.rounded(.down)), offset: Int64(fixtures.clock.currentOffset.rounded()))
    }
}
