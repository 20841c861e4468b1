import AppleIDEmulator
import Foundation
import JuiceEmulatorSupport
import JuiceStackSupport
import JuiceTestSupport
import Logging
import Testing

@testable import JuiceServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// HTTP idle, header-read and body-read timeouts on Juice and on the emulator (issue 27, finding 4),
/// probed with raw sockets: a connection that stalls is closed by the server.
@Suite("HTTP timeouts: idle, header-trickling and slow-body connections are closed (Juice and the emulator)")
struct HTTPTimeoutTests {
    /// Which server is probed.
    enum Target: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case juice, emulator
        var testDescription: String { rawValue }
    }

    /// Seconds: idle, head, body.
    struct Timeouts: Sendable {
        var idle = 60
        var head = 60
        var body = 60
    }

    /// Runs `target` on a free port with `timeouts`, calls `body` with the port once it listens, stops it.
    static func with(_ target: Target, _ timeouts: Timeouts, _ body: @Sendable (Int) async throws -> Void) async throws {
        try await StackEnvironment.with(.sqlite) { environment in
            var logger = Logger(label: "juice-timeout-test")
            logger.logLevel = .critical
            switch target {
            case .juice:
                var configuration = environment.serverConfiguration(emulatorURL: "http://127.0.0.1:9", loginLimits: .init())
                configuration.port = 0
                configuration.httpTimeouts = HTTPTimeouts(
                    idle: .seconds(timeouts.idle), header: .seconds(timeouts.head), body: .seconds(timeouts.body))
                let ports = AsyncStream.makeStream(of: Int.self)
                let server = try await buildApplication(
                    configuration: configuration, time: TestClock().timeSource, httpClient: TestHTTP.pool, logger: logger, metrics: ServerMetrics(),
                    onServerRunning: { ports.continuation.yield($0) })
                try await withRunningServices([server], logger: logger, ready: ports, body)
            case .emulator:
                var options = EmulatorOptions()
                options.httpIdleTimeout = .seconds(timeouts.idle)
                options.httpHeaderTimeout = .seconds(timeouts.head)
                options.httpBodyTimeout = .seconds(timeouts.body)
                try await EmulatorLauncher.run(
                    configuration: environment.emulatorConfiguration, dataDirectory: environment.directory.appendingPathComponent("emulator"),
                    options: options, logger: logger
                ) { try await body($0.port) }
            }
        }
    }

    /// What a stalling client observed.
    enum Observed: Equatable {
        /// The server closed the connection, after answering `answer` (possibly nothing).
        case closed(answer: String)
        /// Still open after every attempt.
        case open
        /// Could not connect.
        case refused
    }

    /// Connects, sends `opening`, then sends one byte of `trickle` per second (cycling) while
    /// waiting up to `seconds` for the server to close the connection. Blocking socket calls run on a
    /// thread of their own, never on the concurrency pool the server needs.
    static func stall(port: Int, opening: String, trickle: String?, seconds: Int = 12) async -> Observed {
        await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(
                    returning: blockingStall(port: port, opening: Array(opening.utf8), trickle: trickle.map { Array($0.utf8) }, seconds: seconds))
            }
            .start()
        }
    }

    private static func blockingStall(port: Int, opening: [UInt8], trickle: [UInt8]?, seconds: Int) -> Observed {
        guard let descriptor = LoopbackSocket.connected(toPort: port, receiveTimeout: 1) else { return .refused }
        defer { close(descriptor) }
        if !opening.isEmpty { _ = opening.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        var answer = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        for second in 0..<seconds {
            if let trickle, !trickle.isEmpty {
                var byte = trickle[second % trickle.count]
                if send(descriptor, &byte, 1, Int32(MSG_NOSIGNAL)) < 0 { return .closed(answer: String(decoding: answer, as: UTF8.self)) }
            }
            // Waits up to a second (the receive timeout) for data or the close.
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return .closed(answer: String(decoding: answer, as: UTF8.self)) }
            if count > 0 { answer += buffer[..<count] }
            if count < 0 && errno != EAGAIN && errno != EWOULDBLOCK { return .closed(answer: String(decoding: answer, as: UTF8.self)) }
        }
        return .open
    }

    static func isClosed(_ observed: Observed) -> Bool {
        if case .closed = observed { return true }
        return false
    }

    @Test("a connection that sends nothing is closed after the idle timeout", arguments: Target.allCases)
    func idle(target: Target) async throws {
        try await Self.with(target, Timeouts(idle: 1)) { port in
            let observed = await Self.stall(port: port, opening: "", trickle: nil)
            #expect(Self.isClosed(observed), "\(observed)")
        }
    }

    @Test("a request head trickled a byte a second is closed after the header timeout, however many bytes arrive", arguments: Target.allCases)
    func headerTrickle(target: Target) async throws {
        try await Self.with(target, Timeouts(head: 2)) { port in
            let observed = await Self.stall(port: port, opening: "GET /health HTTP/1.1\r\n", trickle: "X-Slow: abcdefghijklmnopqrstuvwxyz;")
            #expect(Self.isClosed(observed), "\(observed)")
        }
    }

    @Test("a request body trickled a byte a second is closed after the body timeout", arguments: Target.allCases)
    func slowBody(target: Target) async throws {
        try await Self.with(target, Timeouts(body: 2)) { port in
            let head = "POST /api/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"
            let observed = await Self.stall(port: port, opening: head, trickle: "a")
            #expect(Self.isClosed(observed), "\(observed)")
        }
    }

    @Test("with short timeouts, prompt requests (a GET, a POST with its body) are still answered", arguments: Target.allCases)
    func promptRequests(target: Target) async throws {
        try await Self.with(target, Timeouts(idle: 2, head: 2, body: 2)) { port in
            let get = await Self.stall(port: port, opening: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", trickle: nil)
            guard case .closed(let answer) = get else {
                Issue.record("no answer: \(get)")
                return
            }
            #expect(answer.hasPrefix("HTTP/1.1 "), "\(answer.prefix(100))")
            let body = #"{"username": "x"}"#
            let post = await Self.stall(
                port: port,
                opening:
                    "POST /api/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)",
                trickle: nil)
            guard case .closed(let postAnswer) = post else {
                Issue.record("no answer: \(post)")
                return
            }
            #expect(postAnswer.hasPrefix("HTTP/1.1 "), "\(postAnswer.prefix(100))")
        }
    }
}
