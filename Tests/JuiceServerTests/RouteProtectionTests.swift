import AppleSignIn
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JuiceStackSupport
import JuiceTestSupport
import Logging
import NIOCore
import Testing

@testable import JuiceServer

/// Every route's protection, read from the router's own table (``RouteCatalog``), and each protection
/// proven to hold before any handler runs: a new route cannot go without a declared protection, and a
/// state-changing one without a session check, a CSRF or origin check, or a written exemption.
@Suite("Route protection: the router's table says who may reach every route")
struct RouteProtectionTests {
    /// The whole table, as it should be. A new route belongs here with the protection it needs.
    static let expected: [String: String] = [
        "GET /": "openRead", "GET /signup": "openRead", "GET /auth/apple": "openRead", "GET /auth/apple/native": "openRead",
        "GET /auth/apple/finish": "openRead", "GET /api/credential-state": "openRead", "GET /openapi.yaml": "openRead",
        "GET /health": "openRead", "GET /metrics": "openRead", "GET /.well-known/apple-app-site-association": "openRead",
        "GET /.well-known/passkey-endpoints": "openRead", "GET /.well-known/webauthn": "openRead",
        "GET /.well-known/change-password": "openRead",
        "POST /signin": "form", "POST /signup": "form", "POST /signout": "form", "POST /account/passkeys/offer/dismiss": "form",
        "GET /account": "signedInPage", "GET /account/password": "signedInPage",
        "POST /account/delete": "signedInForm", "POST /account/password": "signedInForm", "POST /account/sessions/end": "signedInForm",
        "POST /account/sessions/end-others": "signedInForm", "POST /account/passkeys/rename": "signedInForm",
        "POST /account/passkeys/remove": "signedInForm",
        "POST /auth/apple/popup": "script", "POST /auth/apple/popup/complete": "script", "POST /auth/passkey": "script",
        "POST /signup/passkey": "script",
        "GET /api/me": "signedInRead", "GET /api/account/sessions": "signedInRead", "GET /api/passkeys": "signedInRead",
        "GET /api/events": "signedInRead",
        "POST /api/signout": "signedInChange", "DELETE /api/account": "signedInChange", "POST /api/account/password": "signedInChange",
        "DELETE /api/account/sessions/{id}": "signedInChange", "DELETE /api/account/sessions": "signedInChange",
        "POST /api/passkeys/registration/options": "signedInChange", "POST /api/passkeys/registration": "signedInChange",
        "PATCH /api/passkeys/{id}": "signedInChange", "DELETE /api/passkeys/{id}": "signedInChange",
        "POST /api/passkeys/upgrade/options": "signedInChange", "POST /api/passkeys/upgrade": "signedInChange",
        "POST /api/auth/nonce": "exempt", "POST /api/auth/apple": "exempt", "POST /api/accounts": "exempt", "POST /api/auth/password": "exempt",
        "POST /api/auth/passkey/options": "exempt", "POST /api/auth/passkey": "exempt", "POST /api/accounts/passkey/options": "exempt",
        "POST /api/accounts/passkey": "exempt", "POST /auth/apple/callback": "exempt", "POST /apple/notifications": "exempt",
    ]

    /// One row of the table: `METHOD path`, its protection, and a request path with every capture filled in.
    struct Row: Sendable, CustomStringConvertible {
        let method: HTTPRequest.Method
        let path: String
        let protection: RouteProtection
        var key: String { "\(method.rawValue) \(path)" }
        var requestPath: String { path.replacingOccurrences(of: "{id}", with: "x") }
        var description: String { "\(key): \(protection)" }
    }

    static func kind(_ protection: RouteProtection) -> String {
        switch protection {
        case .openRead: "openRead"
        case .exempt: "exempt"
        case .form: "form"
        case .script: "script"
        case .signedInPage: "signedInPage"
        case .signedInForm: "signedInForm"
        case .signedInRead: "signedInRead"
        case .signedInChange: "signedInChange"
        }
    }

    /// The router's table, with the dependencies and an in-process client for requests.
    static func withTable(_ body: @escaping @Sendable ([Row], ServerDependencies, any TestClientProtocol) async throws -> Void) async throws {
        let logger = Logger(label: "juice-test-routes")
        try await StackEnvironment.with(.sqlite) { environment in
            let database = try await openDatabase(environment.database, logger: logger)
            do {
                try await SchemaMigrator().migrate(database, now: Date(), logger: logger)
                let configuration = environment.serverConfiguration(emulatorURL: "http://127.0.0.1:9", loginLimits: .init())
                let dependencies = try await ServerDependencies.make(
                    configuration: configuration, database: database, time: .system, random: .system, httpClient: TestHTTP.pool, logger: logger)
                let catalog = buildRoutes(on: Router(context: AppRequestContext.self), dependencies: dependencies)
                var rows: [Row] = []
                for route in catalog.routes {
                    for method in route.methods.sorted(by: { $0.rawValue < $1.rawValue }) {
                        let protection = try #require(route.protections[method], "\(method) \(route.path) has no declared protection")
                        rows.append(Row(method: method, path: route.path.description, protection: protection))
                    }
                }
                let table = rows
                let app = Application(router: buildRouter(dependencies: dependencies), logger: logger)
                try await app.test(.router) { client in try await body(table, dependencies, client) }
                await database.close()
            } catch {
                await database.close()
                throw error
            }
        }
    }

    @Test("every route has a declared protection, and the table is the one written here")
    func table() async throws {
        try await Self.withTable { rows, _, _ in
            let actual = Dictionary(rows.map { ($0.key, Self.kind($0.protection)) }, uniquingKeysWith: { first, _ in first })
            #expect(rows.count == actual.count, "a route is declared twice")
            for (key, kind) in actual where Self.expected[key] != kind {
                Issue.record("\(key) is \(kind), expected \(Self.expected[key] ?? "no such route")")
            }
            for key in Self.expected.keys where actual[key] == nil {
                Issue.record("\(key) is not registered")
            }
        }
    }

    @Test("a state-changing route checks a session and its origin, checks its origin, or is exempt with a reason; open and signed-in reads are GETs")
    func rules() async throws {
        try await Self.withTable { rows, _, _ in
            for row in rows {
                switch row.protection {
                case .openRead, .signedInPage, .signedInRead:
                    #expect(row.method == .get, "\(row) changes state without a session or an origin check")
                case .exempt(let reason):
                    #expect(row.method != .get, "\(row): a GET needs no exemption")
                    #expect(reason.count >= 20, "\(row): an exemption says why")
                case .form, .script, .signedInForm, .signedInChange:
                    #expect(row.protection.checksOrigin)
                }
            }
        }
    }

    @Test("with no session, every signed-in API route answers 401 and every signed-in page goes to the login page")
    func sessionRequired() async throws {
        try await Self.withTable { rows, dependencies, client in
            let origin = dependencies.configuration.publicOrigin
            // A signed-in form's group checks the CSRF token first: give it a valid pre-session one.
            let (csrfCookie, csrfToken) = try await Self.preSessionToken(client)
            for row in rows where row.protection.needsSession {
                var headers: HTTPFields = [.origin: origin, .cookie: csrfCookie]
                var body = ByteBuffer()
                if row.protection == .signedInForm {
                    headers[.contentType] = "application/x-www-form-urlencoded"
                    body = ByteBuffer(string: "csrf=\(csrfToken)")
                }
                try await client.execute(uri: row.requestPath, method: row.method, headers: headers, body: body) { response in
                    switch row.protection {
                    case .signedInPage, .signedInForm:
                        #expect(response.status == .seeOther && response.headers[.location] == "/", "\(row): \(response.status)")
                    default:
                        #expect(response.status == .unauthorized, "\(row): \(response.status)")
                        #expect(String(buffer: response.body).contains(#""error":"unauthorized""#), "\(row)")
                    }
                }
            }
        }
    }

    @Test("signed in with the cookie, every route that checks its origin refuses another site's request with 403")
    func crossSiteRefused() async throws {
        try await Self.withTable { rows, _, client in
            let token = try await Self.signUp(client)
            for row in rows where row.protection.checksOrigin {
                let headers: HTTPFields = [
                    .origin: "https://evil.example", .cookie: "juice_session=\(token)", .contentType: "application/x-www-form-urlencoded",
                ]
                try await client.execute(uri: row.requestPath, method: row.method, headers: headers, body: ByteBuffer(string: "csrf=x")) {
                    response in
                    #expect(response.status == .forbidden, "\(row): \(response.status)")
                    if row.protection == .script || row.protection == .signedInChange {
                        #expect(String(buffer: response.body).contains(#""error":"invalid_csrf_token""#), "\(row)")
                    }
                }
            }
        }
    }

    /// A new password account's session token.
    static func signUp(_ client: any TestClientProtocol) async throws -> String {
        let body = ByteBuffer(string: #"{"username": "route-table", "password": "fresh-squeezed-juice"}"#)
        return try await client.execute(uri: "/api/accounts", method: .post, headers: [.contentType: "application/json"], body: body) { response in
            #expect(response.status == .created)
            let answer = try JSONDecoder().decode([String: JSONValueIgnoringRest].self, from: Data(String(buffer: response.body).utf8))
            return try #require(answer["token"]?.text)
        }
    }

    /// The login page's pre-session cookie (`name=value`) and the form token bound to it.
    static func preSessionToken(_ client: any TestClientProtocol) async throws -> (cookie: String, token: String) {
        try await client.execute(uri: "/", method: .get) { response in
            let setCookie = try #require(response.headers[.setCookie])
            let cookie = try #require(setCookie.split(separator: ";").first.map(String.init))
            let page = String(buffer: response.body)
            let marker = #"name="csrf" value=""#
            let start = try #require(page.range(of: marker)?.upperBound)
            let token = try #require(page[start...].split(separator: "\"").first.map(String.init))
            return (cookie, token)
        }
    }

    /// A JSON value of which only strings are read.
    struct JSONValueIgnoringRest: Decodable {
        let text: String?
        init(from decoder: any Decoder) throws {
            text = try? decoder.singleValueContainer().decode(String.self)
        }
    }
}
