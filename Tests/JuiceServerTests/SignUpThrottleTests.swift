import Foundation
import Hummingbird
import JuiceStackSupport
import JuiceTestSupport
import NIOHTTP1
import Testing

@testable import JuiceServer

/// Sign-up throttling and the bound on concurrent bcrypt work (issue 27, finding 5).
@Suite("Sign-up is throttled per client address; bcrypt work is bounded")
struct SignUpThrottleTests {
    /// `POST /api/accounts` as the client `client` behind the trusted proxy.
    static func signUp(_ stack: JuiceStack, _ username: String, client: String) async throws -> HTTPResult {
        let body = String(
            decoding: try JSONSerialization.data(withJSONObject: ["username": username, "password": "mandarin-grove-41"]), as: UTF8.self)
        return try await Browser().send(
            .POST, stack.serverURL + "/api/accounts", headers: [("Content-Type", "application/json"), ("X-Forwarded-For", client)], body: body)
    }

    @Test(
        "the 11th sign-up attempt from one client address within the hour is 429 with Retry-After; another client is not limited",
        arguments: TestDatabase.all)
    func throttled(database: TestDatabase) async throws {
        try await StackEnvironment.with(database) { environment in
            var environment = environment
            environment.trustedProxies = try TrustedProxies(parsing: ["127.0.0.1/32", "::1"])
            try await JuiceStack.with(environment: environment) { stack in
                let attacker = "203.0.113.5"
                // Taken names count too: each answer would tell whether a username exists.
                #expect(try await Self.signUp(stack, "probe0", client: attacker).status == 201)
                for index in 1..<10 {
                    let answer = try await Self.signUp(stack, index.isMultiple(of: 2) ? "probe0" : "probe\(index)", client: attacker)
                    #expect([201, 409].contains(answer.status), "\(index): \(answer.status)")
                }
                let limited = try await Self.signUp(stack, "probe11", client: attacker)
                #expect(limited.status == 429)
                #expect(limited.error == "rate_limited")
                let retryAfter = try #require(limited[header: "Retry-After"].flatMap { Int($0) })
                #expect(retryAfter >= 1 && retryAfter <= 3600)
                // A taken name is not revealed either.
                #expect(try await Self.signUp(stack, "probe0", client: attacker).status == 429)

                #expect(try await Self.signUp(stack, "neighbour", client: "198.51.100.7").status == 201, "another client signs up")
                // After the window, the address may sign up again.
                stack.clock.advance(by: 3601)
                #expect(try await Self.signUp(stack, "probe12", client: attacker).status == 201)
            }
        }
    }

    /// Counts work running at once.
    actor Concurrency {
        private(set) var running = 0
        private(set) var most = 0
        func enter() {
            running += 1
            most = max(most, running)
        }
        func leave() { running -= 1 }
    }

    @Test("no more bcrypt computations run at once than the limiter has slots, and new-password hashes hold at most half")
    func bound() async throws {
        let limiter = BcryptLimiter(slots: 4, maximumWaiting: 64)
        let concurrency = Concurrency()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<24 {
                group.addTask {
                    try await limiter.run(index.isMultiple(of: 2) ? .hash : .verify) {
                        await concurrency.enter()
                        try await Task.sleep(for: .milliseconds(2))
                        await concurrency.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(await concurrency.most <= 4)
        #expect(await limiter.peak <= 4)
        #expect(await limiter.peakHashes <= 2)
        #expect(await limiter.completed == 24)
    }

    @Test("with every slot taken and the queue full, a caller is refused at once: 503 server_busy with Retry-After")
    func overflow() async throws {
        let limiter = BcryptLimiter(slots: 1, maximumWaiting: 1)
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await limiter.run(.verify) {
                    for await _ in gate { break }
                }
            }
            for _ in 0..<1000 where await limiter.peak < 1 { try await Task.sleep(for: .milliseconds(5)) }
            group.addTask { try await limiter.run(.hash) {} }
            for _ in 0..<1000 where await limiter.waitingCount < 1 { try await Task.sleep(for: .milliseconds(5)) }
            #expect(await limiter.waitingCount == 1)
            do {
                try await limiter.run(.verify) {}
                Issue.record("a third caller was admitted")
            } catch let error as ServerError {
                #expect(error.code == .serverBusy)
                #expect(error.status == .serviceUnavailable)
                #expect(error.headers[.retryAfter] == "1")
            }
            open.yield()
            open.finish()
            try await group.waitForAll()
        }
        #expect(await limiter.completed == 2)
    }

    @Test("sign-ups cannot starve sign-ins: with the hash share taken and more hashes queued, a verification runs at once")
    func verificationsFirst() async throws {
        let limiter = BcryptLimiter(slots: 2, maximumWaiting: 8)
        #expect(limiter.hashSlots == 1)
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await limiter.run(.hash) {
                    for await _ in gate { break }
                }
            }
            for _ in 0..<1000 where await limiter.peak < 1 { try await Task.sleep(for: .milliseconds(5)) }
            group.addTask { try await limiter.run(.hash) {} }
            for _ in 0..<1000 where await limiter.waitingCount < 1 { try await Task.sleep(for: .milliseconds(5)) }
            // A sign-in's verification is not queued behind the waiting sign-up.
            try await limiter.run(.verify) {}
            #expect(await limiter.completed == 1)
            #expect(await limiter.waitingCount == 1, "the second hash still waits for the hash share")
            open.yield()
            open.finish()
            try await group.waitForAll()
        }
        #expect(await limiter.completed == 3)
        #expect(await limiter.peakHashes == 1)
    }
}
