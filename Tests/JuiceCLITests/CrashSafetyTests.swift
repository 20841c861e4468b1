import Foundation
import JuiceInfrastructure
import JuiceProcesses
import JuiceTestSupport
import Logging
import SQLKit
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Crash safety: kill -9 under load loses nothing that was acknowledged")
struct CrashSafetyTests {
    /// What the server answered 2xx for: the username and every session token it handed out.
    final class Acknowledged: Sendable {
        private let entries = Mutex<[(username: String, token: String)]>([])
        var all: [(username: String, token: String)] { entries.withLock { $0 } }
        var count: Int { entries.withLock { $0.count } }
        func add(_ username: String, _ token: String) { entries.withLock { $0.append((username, token)) } }
    }

    /// `POST path` with a JSON body; the token of a 2xx answer, `nil` for any other answer.
    static func post(_ url: String, _ body: [String: String]) async throws -> String? {
        let answer = try await TestHTTP(timeout: .seconds(30)).postJSON(url, body)
        guard (200..<300).contains(answer.status) else { return nil }
        return answer.json?["token"] as? String
    }

    /// `GET /api/me` with `token` through ``TestHTTP/pool``: the username it proves, or `nil`.
    static func me(_ url: String, token: String) async throws -> String? {
        let answer = try await TestHTTP(timeout: .seconds(30)).get(url + "/api/me", headers: [("Authorization", "Bearer \(token)")])
        guard answer.status == 200 else { return nil }
        return answer.json?["username"] as? String
    }

    @Test(
        "kill -9 of juice serve mid-load; restarted on the same SQLite file, integrity_check is ok and every acknowledged account and session is there",
        .timeLimit(.minutes(4)))
    func killNineUnderLoad() async throws {
        let first = try ServeProcess()
        defer { first.stop() }
        try await first.start()
        let acknowledged = Acknowledged()
        let target = 12
        let url = first.url
        // Sign-ups (an account, its password and a session in one transaction) and sign-ins (a second
        // session) from four clients, until the process dies under them.
        await withTaskGroup(of: Void.self) { workers in
            for worker in 0..<4 {
                workers.addTask {
                    for round in 0..<200 {
                        let username = "crash-\(worker)-\(round)"
                        let password = "kill-nine-proof-\(worker)-\(round)"
                        do {
                            guard let token = try await Self.post(url + "/api/accounts", ["username": username, "password": password]) else {
                                continue
                            }
                            acknowledged.add(username, token)
                            if let second = try await Self.post(url + "/api/auth/password", ["username": username, "password": password]) {
                                acknowledged.add(username, second)
                            }
                        } catch {
                            return  // the server is gone
                        }
                    }
                }
            }
            let deadline = ContinuousClock.now + .seconds(120)
            while acknowledged.count < target && ContinuousClock.now < deadline && first.isRunning {
                try? await Task.sleep(for: .milliseconds(50))
            }
            first.terminate(SIGKILL)
        }
        #expect(try await first.waitForExit(seconds: 20))
        #expect(first.child?.exit == .signalled(SIGKILL))
        let survivors = acknowledged.all
        #expect(survivors.count >= target, "the load got \(survivors.count) answers before the kill")

        // The file as the crash left it (the WAL is replayed on open).
        let store = try await SQLiteStore.open(path: first.dataDirectory.appendingPathComponent("juice.sqlite").path, logger: Logger(label: "crash"))
        let integrity = try await store.transaction { database in
            try await database.raw("PRAGMA integrity_check").all().map { try $0.decode(column: "integrity_check", as: String.self) }
        }
        let usernames = try await store.transaction { database in
            try await database.raw("SELECT a.username FROM password_credentials p JOIN accounts a ON a.id = p.account_id").all().map {
                try $0.decode(column: "username", as: String.self)
            }
        }
        await store.close()
        #expect(integrity == ["ok"])
        #expect(Set(survivors.map(\.username)).isSubset(of: Set(usernames)))

        let second = ServeProcess(restarting: first)
        defer { second.stop() }
        try await second.start()
        // A pool of its own: the shared one's pool for this address just saw the killed process
        // refuse connections, and may still be backing off from it.
        try await TestHTTP.withFreshPool {
            do {
                for (username, token) in survivors {
                    #expect(try await Self.me(second.url, token: token) == username, "\(username)'s acknowledged session survived")
                }
            } catch {
                Issue.record("the restarted server did not answer (\(error)); its output:\n\(second.output.suffix(2000))")
                throw error
            }
        }
        second.terminate()
        #expect(try await second.waitForExit(seconds: 20))
    }
}
