import AppleIDEmulator
import Foundation
import JuiceEncodings
import JuiceTestSupport
import Testing

@testable import juice

@Suite("juice bench signin")
struct BenchSignInCommandTests {
    @Test("latency percentiles are nearest-rank: p50 and p99 of 1…100 ms are 50 and 99 ms; one sample is every percentile")
    func percentiles() async throws {
        let samples = (1...100).map { Duration.milliseconds($0) }.shuffled()
        let summary = try #require(LatencySummary(samples))
        #expect(summary.count == 100)
        #expect(summary.p50 == .milliseconds(50))
        #expect(summary.p99 == .milliseconds(99))
        #expect(summary.max == .milliseconds(100))
        let one = try #require(LatencySummary([.milliseconds(7)]))
        #expect(one.p50 == .milliseconds(7) && one.p99 == .milliseconds(7))
        let ten = try #require(LatencySummary((1...10).map { Duration.milliseconds($0) }))
        #expect(ten.p50 == .milliseconds(5) && ten.p99 == .milliseconds(10))
        #expect(LatencySummary([]) == nil)
        #expect(Duration.microseconds(12_345).roundedMilliseconds == 12.3)
    }

    @Test(
        "bad arguments exit non-zero naming the option",
        arguments: [
            (["--server", "http://127.0.0.1:8080", "--concurrency", "0"], "--concurrency"),
            (["--server", "http://127.0.0.1:8080", "--count", "-3"], "--count"),
            (["--server", "http://127.0.0.1:8080", "--count", "1000001"], "--count"),
            (["--server", "http://127.0.0.1:8080", "--concurrency", "1025"], "--concurrency"),
            (["--server", "ftp://example.com"], "--server"),
            (["--server", "http://127.0.0.1:8080", "--emulator", "not a url"], "--emulator"),
            (["--server", "http://127.0.0.1:8080", "--apple-id-count", "0"], "--apple-id-count"),
            (["--server", "http://127.0.0.1:8080", "--apple-id-count", "10001"], "--apple-id-count"),
            ([], "--server"),
            (["--server", "http://127.0.0.1:8080", "--server-pid", "0"], "--server-pid"),
            (["--server", "http://127.0.0.1:8080", "--server-pid", "-7"], "--server-pid"),
            (["--server", "http://127.0.0.1:8080", "--server-pid", "2147483647"], "--server-pid"),
            (["--server", "http://127.0.0.1:8080", "--server-pid", "99999999999"], "--server-pid"),
        ]
    )
    func validation(arguments: [String], option: String) async throws {
        let result = try await JuiceProcess.run(["bench", "signin"] + arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(option), "\(result.stderr)")
    }

    @Test(
        "juice bench verify refuses counts and rounds out of range, naming the option",
        arguments: [
            (["--count", "0"], "--count"), (["--count", "10000001"], "--count"), (["--rounds", "0"], "--rounds"),
            (["--rounds", "99999999999"], "--rounds"),
        ]
    )
    func verifyValidation(arguments: [String], option: String) async throws {
        let result = try await JuiceProcess.run(["bench", "verify"] + arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(option), "\(result.stderr)")
    }

    @Test("a server that cannot be reached is reported, exit 1")
    func unreachable() async throws {
        let port = try FreePort.pick()
        let result = try await JuiceProcess.run(["bench", "signin", "--server", "http://127.0.0.1:\(port)", "--count", "1"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot reach http://127.0.0.1:\(port)/api/auth/nonce"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("a server without the native sign-in API is reported clearly, exit 1", .timeLimit(.minutes(2)))
    func missingEndpoint() async throws {
        let serve = try ServeProcess()
        defer { serve.stop() }
        try await serve.start()
        // The development emulator is an HTTP server without POST /api/auth/nonce.
        let result = try await JuiceProcess.run(["bench", "signin", "--server", serve.emulatorURL, "--emulator", serve.emulatorURL, "--count", "1"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("does not offer POST /api/auth/nonce"), "\(result.stderr)")
        #expect(result.stderr.contains("native sign-in API"))
    }

    @Test("--server-only collects the credentials first, then times only POST /api/auth/apple: every one succeeds", .timeLimit(.minutes(2)))
    func serverOnly() async throws {
        let serve = try ServeProcess()
        defer { serve.stop() }
        try await serve.start()
        let result = try await JuiceProcess.run(
            ["bench", "signin", "--server", serve.url, "--emulator", serve.emulatorURL, "--count", "6", "--concurrency", "3", "--server-only"],
            timeout: .seconds(90)
        )
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").last)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(json["mode"] as? String == "server-only")
        #expect(json["succeeded"] as? Int == 6)
        #expect(json["failed"] as? Int == 0)
        #expect((json["p99_ms"] as? Double).map { $0 > 0 } == true)
    }

    @Test("a complete run reports its mode, and every sign-in succeeds", .timeLimit(.minutes(2)))
    func complete() async throws {
        let serve = try ServeProcess()
        defer { serve.stop() }
        try await serve.start()
        let result = try await JuiceProcess.run(
            ["bench", "signin", "--server", serve.url, "--emulator", serve.emulatorURL, "--count", "4", "--concurrency", "2"], timeout: .seconds(90)
        )
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").last)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(json["mode"] as? String == "complete")
        #expect(json["succeeded"] as? Int == 4)
    }

    @Test(
        "--apple-id-count signs in as several Apple IDs in turn: all of serve --demo-apple-ids 3 work, a fourth does not exist",
        .timeLimit(.minutes(2))
    )
    func severalAppleIDs() async throws {
        let serve = try ServeProcess()
        serve.extraArguments = ["--demo-apple-ids", "3"]
        defer { serve.stop() }
        try await serve.start()
        #expect(serve.output.contains("and 2 more: appleseed+2@juice.test … appleseed+3@juice.test"), "\(serve.output)")
        let base = ["bench", "signin", "--server", serve.url, "--emulator", serve.emulatorURL, "--count", "6", "--concurrency", "3"]
        let result = try await JuiceProcess.run(base + ["--apple-id-count", "3"], timeout: .seconds(90))
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").last)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(json["apple_ids"] as? Int == 3)
        #expect(json["succeeded"] as? Int == 6)
        let tooMany = try await JuiceProcess.run(base + ["--apple-id-count", "4"], timeout: .seconds(90))
        #expect(tooMany.status == 1, "appleseed+4@juice.test is not one of the emulator's Apple IDs")
        #expect(tooMany.stdout.isEmpty)
    }

    @Test("numbered demo emails: the first is the email itself, then local+N@domain")
    func numberedEmails() {
        #expect(EmulatorConfiguration.numberedEmail("appleseed@juice.test", 1) == "appleseed@juice.test")
        #expect(EmulatorConfiguration.numberedEmail("appleseed@juice.test", 12) == "appleseed+12@juice.test")
        #expect(EmulatorConfiguration.numberedEmail("no-at-sign", 3) == "no-at-sign")
        let ids = EmulatorConfiguration.demoAppleIDs(count: 3)
        #expect(ids.map(\.email) == ["appleseed@juice.test", "appleseed+2@juice.test", "appleseed+3@juice.test"])
        #expect(Set(ids.map(\.password)) == ["juice"])
        #expect(EmulatorConfiguration.demoAppleIDs(count: 0).count == 1)
    }

    @Test("CPU time is read around the timed steps: the driver's own, and a watched process's from /proc; a stat line is read past its command name")
    func cpuTime() async throws {
        let me = getpid()
        #expect(BenchCPUTime.processCPUTime(me) != nil)
        #expect(BenchCPUTime.processCPUTime(-1) == nil && BenchCPUTime.processCPUTime(0) == nil)
        let timed = try await BenchCPUTime.$serverProcessID.withValue(me) {
            try await BenchSignIn.drive(count: 4, concurrency: 2, label: "sign-ins") { (_: Int) async throws(BenchSignInError) in
                _ = (0..<20_000).reduce(0) { $0 &+ $1 }
            }
        }
        #expect(timed.cpu.server != nil && timed.cpu.driver >= .zero)
        let report = BenchSignIn.report(timed, fields: [:])
        guard case .object(let fields) = report else { throw BenchSignInError(kind: "test", "not an object") }
        #expect(fields["driver_cpu_ms_per_sign_in"] != nil && fields["server_cpu_ms_per_sign_in"] != nil)
        let unwatched = try await BenchSignIn.drive(count: 1, concurrency: 1, label: "sign-ins") { (_: Int) async throws(BenchSignInError) in }
        #expect(unwatched.cpu.server == nil)

        let stat = "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 300 0 0 0 17 5 0 0 20 0 1 0 100 1000 10"
        #expect(BenchCPUTime.ticks(fromStat: stat) == 22)
        #expect(BenchCPUTime.ticks(fromStat: "4242 (x) S 1 2 3") == nil)
        #expect(BenchCPUTime.ticks(fromStat: "4242 (x) S 1 4242 4242 0 -1 4194560 300 0 0 0 -17 5 0") == nil)
        #expect(BenchCPUTime.ticks(fromStat: "4242 (x) S 1 4242 4242 0 -1 4194560 300 0 0 0 9223372036854775807 5 0") == nil)
    }
}
