import AppleSignIn
import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JuiceStackSupport
import JuiceTestSupport
import Logging
import NIOCore
import SQLKit
import Testing

@testable import JuiceServer

@Suite("Operations: /health, /metrics, request logs")
struct OperationsTests {
    /// The server's router over a database this test controls (it can close it), in process.
    static func withRouter<T: Sendable>(
        _ kind: TestDatabase, logger: Logger = Logger(label: "juice-test-ops"), metrics: ServerMetrics = ServerMetrics(),
        _ body: @escaping @Sendable (any JuiceDatabase, ServerDependencies, any TestClientProtocol) async throws -> T
    ) async throws -> T {
        try await StackEnvironment.with(kind) { environment in
            let database = try await openDatabase(environment.database, logger: logger)
            do {
                try await SchemaMigrator().migrate(database, now: Date(), logger: logger)
                let configuration = environment.serverConfiguration(emulatorURL: "http://127.0.0.1:9", loginLimits: .init())
                let dependencies = try await ServerDependencies.make(
                    configuration: configuration, database: database, time: .system, random: .system, httpClient: TestHTTP.pool, logger: logger,
                    metrics: metrics
                )
                let app = Application(router: buildRouter(dependencies: dependencies), logger: logger)
                let result = try await app.test(.router) { client in try await body(database, dependencies, client) }
                await database.close()
                return result
            } catch {
                await database.close()
                throw error
            }
        }
    }

    @Test("/health is 200 with the database reachable and 503 once it is not", arguments: TestDatabase.all)
    func health(database kind: TestDatabase) async throws {
        try await Self.withRouter(kind) { database, _, client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
                let body = String(buffer: response.body)
                #expect(body.contains(#""status":"ok""#) && body.contains(#""database":"ok""#), "\(body)")
                #expect(response.headers[.cacheControl] == "no-store")
            }
            await database.close()
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).contains(#""database":"unreachable""#))
            }
        }
    }

    @Test("PostgreSQL: connections the server killed are replaced; /health stays 200", TestDatabase.postgresOnly)
    func killedConnections() async throws {
        try await Self.withRouter(.postgres) { database, _, client in
            for _ in 0..<3 {
                try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
                // Kill every session on this database but the one asking, and wait until they are gone.
                let killed = try await database.read { sql in
                    try await sql.raw(
                        "SELECT pid, pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    ).all(decoding: Backend.self)
                }.map(\.pid)
                if !killed.isEmpty {
                    let list = killed.map(String.init).joined(separator: ",")
                    let gone = try await eventually(timeout: .seconds(30)) { () -> Bool? in
                        // A pooled connection may be one of the killed: that read fails, and the next one asks again.
                        let left = try? await database.read { sql in
                            try await sql.raw("SELECT pid FROM pg_stat_activity WHERE pid IN (\(unsafeRaw: list))").all(decoding: Backend.self)
                        }
                        return left?.isEmpty == true ? true : nil
                    }
                    #expect(gone == true, "the killed sessions ended")
                }
                // …and the asking one too (it dies mid-statement, so the error is expected).
                try? await database.read { sql in
                    try await sql.raw("SELECT pg_terminate_backend(pg_backend_pid())").run()
                }
            }
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test(
        "/metrics: sign-ins by method and outcome, refused tokens by code, Apple latency, requests by route; no user ids", arguments: TestDatabase.all
    )
    func metrics(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let browser = Browser()
            let signedIn = try await AppleFlow.signIn(stack, browser)
            #expect(signedIn.status == 303)
            let me = try await AppleFlow.me(stack, token: try #require(signedIn.cookieValue("juice_session")))
            let subject = try #require(me.json?["user"] as? String)
            // A forged token: refused as bad_signature.
            let genuine = try await AppleFlow.authorize(try await AppleFlow.start(stack, browser), browser: browser)
            var parts = try #require(genuine.field("id_token")).split(separator: ".").map(String.init)
            parts[2] = String(parts[2].reversed())
            let forged = try await AppleFlow.deliver(genuine.replacing("id_token", with: parts.joined(separator: ".")), stack, browser)
            #expect(forged.status == 400)

            let scrape = try await Browser().get(stack.serverURL + "/metrics")
            #expect(scrape.status == 200)
            #expect(scrape[header: "Content-Type"]?.hasPrefix("text/plain") == true)
            let text = scrape.body
            #expect(text.contains(#"juice_sign_ins_total{method="apple",outcome="success"} 1"#), "\(text)")
            #expect(text.contains(#"juice_sign_ins_total{method="apple",outcome="invalid_identity_token"} 1"#))
            #expect(text.contains(#"juice_identity_token_failures_total{code=""#))
            #expect(text.contains(#"juice_apple_request_duration_seconds_count{endpoint="token",outcome="ok"} 1"#))
            #expect(text.contains(#"juice_apple_request_duration_seconds_count{endpoint="keys",outcome="ok"}"#))
            #expect(text.contains(#"juice_http_requests_total{method="GET",route="/auth/apple",status="302"} 2"#))
            #expect(text.contains(#"juice_http_requests_total{method="POST",route="/auth/apple/callback",status="303"} 2"#))
            #expect(text.contains(#"juice_http_requests_total{method="GET",route="/auth/apple/finish",status="400"} 1"#))
            #expect(!text.contains(subject), "no user id in any label")
        }
    }

    @Test("the queued-revocation gauge counts the pending_revocations rows, or reads its provider", arguments: TestDatabase.all)
    func queuedRevocations(database kind: TestDatabase) async throws {
        try await Self.withRouter(kind) { database, dependencies, client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(String(buffer: response.body).contains("juice_queued_revocations 0.0"), "nothing queued yet")
            }
            try await database.transaction { sql in
                for id in ["a", "b"] {
                    try await sql.raw(
                        """
                        INSERT INTO pending_revocations (id, subject, client_id, sealed_token, attempts, next_attempt_at, created_at)
                        VALUES (\(bind: id), 'subject', 'client', 'sealed', 0, 0, 0)
                        """
                    ).run()
                }
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(String(buffer: response.body).contains("juice_queued_revocations 2.0"), "\(String(buffer: response.body))")
            }
            let router = Router(context: AppRequestContext.self)
            router.addRoutes(OperationsController(database: database, metrics: dependencies.metrics, queuedRevocations: { 7 }).endpoints)
            try await Application(router: router).test(.router) { other in
                try await other.execute(uri: "/metrics", method: .get) { response in
                    #expect(String(buffer: response.body).contains("juice_queued_revocations 7.0"))
                }
            }
        }
    }

    @Test("request logs: method, route, status, duration, request id; authorization, cookies, codes and passwords never logged")
    func requestLogs() async throws {
        let capture = LogCapture()
        try await Self.withRouter(.sqlite, logger: capture.logger(level: .debug)) { _, _, client in
            try await client.execute(
                uri: "/?notice=signed_out&code=SECRET-CODE-1&state=SECRET-STATE-2", method: .get,
                headers: [
                    .authorization: "Bearer SECRET-BEARER-3", .cookie: "juice_session=SECRET-COOKIE-4", HTTPField.Name("X-Request-ID")!: "req-42",
                ]
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[HTTPField.Name("X-Request-ID")!] == "req-42")
            }
            try await client.execute(
                uri: "/signin", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "username=orange&password=SECRET-PASSWORD-5&client_secret=SECRET-6")
            ) { response in
                #expect(response.status.code >= 400)
            }
        }
        let requests = capture.all.filter { $0.message == "request" }
        let page = try #require(requests.first { $0.metadata["http.route"] == "/" })
        #expect(page.metadata["http.method"] == "GET")
        #expect(page.metadata["http.status"]?.description == "200")
        #expect(page.metadata["http.path"] == "/")
        #expect(page.metadata["request.id"] == "req-42")
        #expect(page.metadata["http.duration_ms"] != nil)
        #expect(page.metadata["http.query"] == "notice=signed_out&code=***&state=***")
        let headers = page.metadata["http.headers"]?.description ?? ""
        #expect(headers.contains("authorization") && headers.contains("***"), "\(headers)")
        let form = try #require(requests.first { $0.metadata["http.route"] == "/signin" })
        #expect(form.metadata["http.method"] == "POST")
        #expect(form.metadata["request.id"] != nil)
        for record in capture.all {
            #expect(!record.text.contains("SECRET"), "leaked: \(record.text)")
        }
    }
}

/// A PostgreSQL backend process, as `pg_stat_activity` names it.
private struct Backend: Decodable {
    let pid: Int32
}
