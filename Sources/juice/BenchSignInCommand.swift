import AppleIDEmulator
import AppleSignIn
import ArgumentParser
import AsyncHTTPClient
import Crypto
import Foundation
import JuiceEncodings
import JuiceHTTP
import NIOCore
import NIOHTTP1

/// `juice bench signin`: sign-ins against a running server, `--concurrency` at a time; prints
/// throughput and p50/p99 latency as one JSON line. `--method password` and `--method passkey` are
/// ``BenchPasswordSignIn`` and ``BenchPasskeySignIn``; the default, `apple`, is native Sign in with
/// Apple against the server's Apple (the emulator).
///
/// Each Apple sign-in is what the iOS app does: `POST /api/auth/nonce` at the server, the device sheet at
/// the emulator (`POST /emulator/device/authorize` with the nonce's SHA-256), then
/// `POST /api/auth/apple` with the identity token, the code and the raw nonce. With `--server-only`
/// the first two steps are done for every sign-in before the clock starts, and only
/// `POST /api/auth/apple` (the server's own work, code exchange included) is timed.
struct BenchSignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signin",
        abstract: "Drive sign-ins (--method apple: nonce → emulator → /api/auth/apple; password; passkey); print sign-ins/s and p50/p99 as JSON."
    )

    @OptionGroup var load: BenchLoadOptions

    @Option(help: "The sign-in to drive: apple (native Sign in with Apple), password, or passkey.")
    var method: BenchMethod = .apple

    @Option(name: .customLong("client-id"), help: "The app's bundle id (the identity token's audience).")
    var clientID: String = "com.example.apple-samplecode.juice"

    @Option(name: .customLong("apple-id"), help: "The Apple ID to sign in with, at the emulator.")
    var appleID: String = "appleseed@juice.test"

    @Option(help: "Its password.")
    var password: String = "juice"

    @Option(
        name: .customLong("apple-id-count"),
        help: "Sign in as this many Apple IDs in turn: --apple-id, then appleseed+2@… up to +N (juice serve --demo-apple-ids N has them)."
    )
    var appleIDCount: Int = 1

    func validate() throws {
        guard !clientID.isEmpty, !appleID.isEmpty else { throw ValidationError("--client-id and --apple-id must not be empty") }
        guard (1...EmulatorConfiguration.maximumDemoAppleIDs).contains(appleIDCount) else {
            throw ValidationError("--apple-id-count must be between 1 and \(EmulatorConfiguration.maximumDemoAppleIDs)")
        }
    }

    func run() async throws {
        let (serverBase, emulatorBase) = (load.serverBase, load.emulatorBase)
        let apple = BenchSignIn(
            server: serverBase, emulator: emulatorBase, clientID: clientID,
            appleIDs: (1...appleIDCount).map { EmulatorConfiguration.numberedEmail(appleID, $0) }, password: password
        )
        let (count, concurrency, serverOnly, method, passkeyOrigin) = (load.count, load.concurrency, load.serverOnly, method, load.passkeyOrigin)
        let result = try await BenchCPUTime.$serverProcessID.withValue(load.serverPID) {
            try await BenchSignIn.withBenchClient(concurrency: concurrency) { httpClient in
                switch method {
                case .apple:
                    serverOnly
                        ? try await apple.runServerOnly(count: count, concurrency: concurrency, httpClient: httpClient)
                        : try await apple.run(count: count, concurrency: concurrency, httpClient: httpClient)
                case .password:
                    try await BenchPasswordSignIn(server: serverBase).run(count: count, concurrency: concurrency, httpClient: httpClient)
                case .passkey:
                    try await BenchPasskeySignIn(server: serverBase, origin: passkeyOrigin).run(
                        count: count, concurrency: concurrency, serverOnly: serverOnly, httpClient: httpClient)
                }
            }
        }
        print(result.jsonString())
    }
}

/// The measurement behind `juice bench signin`.
struct BenchSignIn: Sendable {
    let server: String
    let emulator: String
    let clientID: String
    /// The Apple IDs signed in as, in turn (sign-in `i` is `appleIDs[i % count]`).
    let appleIDs: [String]
    let password: String
    /// The three endpoints of a sign-in, with their headers.
    private let nonceEndpoint: BenchEndpoint
    private let deviceEndpoint: BenchEndpoint
    private let appleEndpoint: BenchEndpoint
    /// The device sheet's form for each Apple ID, all but the nonce's hash, which ends it.
    private let deviceForms: [String]

    init(server: String, emulator: String, clientID: String, appleIDs: [String], password: String) {
        self.server = server
        self.emulator = emulator
        self.clientID = clientID
        self.appleIDs = appleIDs
        self.password = password
        nonceEndpoint = BenchEndpoint(json: server + "/api/auth/nonce")
        deviceEndpoint = BenchEndpoint(form: emulator + "/emulator/device/authorize")
        appleEndpoint = BenchEndpoint(json: server + "/api/auth/apple")
        deviceForms = appleIDs.map { appleID in
            FormURLComponent.encode(fields: [
                ("client_id", clientID), ("account_name", appleID), ("password", password), ("scope", "name email"),
                ("email_choice", "share"), ("action", "continue"),
            ]) + "&nonce="
        }
    }

    /// The most sign-ins in flight that `--concurrency` accepts.
    static let maximumConcurrency = 1024
    /// The most sign-ins that `--count` accepts (with `--server-only`, every code must still be
    /// valid — five minutes — when its turn comes).
    static let maximumCount = 1_000_000

    /// Runs `body` with an HTTP client for the benchmark, shut down afterwards whatever `body` did. Its
    /// pool keeps up to `concurrency` connections to each host alive between sign-ins, so that every
    /// worker reuses one (AsyncHTTPClient's default is 8 a host).
    static func withBenchClient<Value: Sendable>(concurrency: Int, _ body: (HTTPClient) async throws -> Value) async throws -> Value {
        let httpClient = OutgoingHTTP.makeClient { configuration in
            configuration.timeout = .init(connect: .seconds(5), read: .seconds(30))
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(8, concurrency)
        }
        let result: Result<Value, any Error>
        do {
            result = .success(try await body(httpClient))
        } catch {
            result = .failure(error)
        }
        try await httpClient.shutdown()
        return try result.get()
    }

    /// `text` without a trailing slash, if it is an http(s) URL with a host.
    static func baseURL(_ text: String) -> String? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host?.isEmpty == false
        else { return nil }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// One sign-in per Apple ID first (a clear error if the server or emulator is not what is
    /// expected; every timed sign-in is then a returning one), then `count` sign-ins by `concurrency`
    /// workers.
    func run(count: Int, concurrency: Int, httpClient: HTTPClient) async throws -> JSONValue {
        try await signInEveryAppleID(httpClient)
        let timed = try await Self.drive(count: count, concurrency: concurrency, label: "sign-ins") { (index: Int) async throws(BenchSignInError) in
            _ = try await signIn(httpClient, as: index)
        }
        return report(timed, mode: "complete", count: count, concurrency: concurrency)
    }

    /// One sign-in per Apple ID first as a check, then `count` device credentials collected at the
    /// emulator (untimed, `concurrency` at a time), then only their `POST /api/auth/apple` timed.
    func runServerOnly(count: Int, concurrency: Int, httpClient: HTTPClient) async throws -> JSONValue {
        try await signInEveryAppleID(httpClient)
        let slots = CredentialSlots<DeviceCredential>(count: count)
        let collected = try await Self.drive(count: count, concurrency: concurrency, label: "credentials") {
            (index: Int) async throws(BenchSignInError) in
            slots.store(try await credential(httpClient, as: index), at: index)
        }
        guard collected.failures.isEmpty else {
            let summary = collected.failures.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            throw BenchSignInError(kind: "device", "collecting the device credentials failed (\(summary))")
        }
        let credentials = slots.all()
        let timed = try await Self.drive(count: credentials.count, concurrency: concurrency, label: "sign-ins") {
            (index: Int) async throws(BenchSignInError) in
            _ = try await exchange(credentials[index], httpClient)
        }
        return report(timed, mode: "server-only", count: count, concurrency: concurrency)
    }

    /// What ``drive(count:concurrency:label:_:)`` measured.
    struct Timed: Sendable {
        var latencies: [Duration] = []
        var failures: [String: Int] = [:]
        var elapsed: Duration = .zero
        /// CPU time spent while the steps ran (``BenchCPUTime``).
        var cpu = BenchCPUTime(driver: .zero, server: nil)
    }

    /// Runs `step` for the indices `0..<count` on `concurrency` workers (each one after the other,
    /// together keeping `concurrency` in flight), timing each step and the whole.
    static func drive(
        count: Int, concurrency: Int, label: String, _ step: @escaping @Sendable (Int) async throws(BenchSignInError) -> Void
    ) async throws -> Timed {
        let workers = min(concurrency, count)
        let progress = BenchProgress(label: label, total: count)
        defer { progress.finish() }
        let start = ContinuousClock.now
        let cpuAtStart = BenchCPUTime.now()
        var timed = try await withThrowingTaskGroup(of: Timed.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var own = Timed()
                    // Worker w takes the indices w, w + workers, w + 2·workers, …
                    for index in stride(from: worker, to: count, by: workers) {
                        let began = ContinuousClock.now
                        do throws(BenchSignInError) {
                            try await step(index)
                            own.latencies.append(ContinuousClock.now - began)
                        } catch {
                            own.failures[error.kind, default: 0] += 1
                        }
                        progress.advance()
                    }
                    return own
                }
            }
            var all = Timed()
            for try await some in group {
                all.latencies += some.latencies
                all.failures.merge(some.failures, uniquingKeysWith: +)
            }
            return all
        }
        timed.elapsed = ContinuousClock.now - start
        timed.cpu = BenchCPUTime.now().since(cpuAtStart)
        return timed
    }

    /// The JSON line of an Apple run.
    func report(_ timed: Timed, mode: String, count: Int, concurrency: Int) -> JSONValue {
        Self.report(
            timed,
            fields: [
                "method": .string(BenchMethod.apple.rawValue), "mode": .string(mode), "server": .string(server),
                "count": .integer(Int64(count)), "concurrency": .integer(Int64(concurrency)), "apple_ids": .integer(Int64(appleIDs.count)),
            ])
    }

    /// The JSON line of a run: `fields`, then what was measured — succeeded, failed, seconds,
    /// sign_ins_per_s, p50/p99/max in milliseconds and the failures by step.
    static func report(_ timed: Timed, fields: [String: JSONValue]) -> JSONValue {
        let seconds = timed.elapsed.inSeconds
        var json = fields
        json["succeeded"] = .integer(Int64(timed.latencies.count))
        json["failed"] = .integer(Int64(timed.failures.values.reduce(0, +)))
        json["seconds"] = .number((seconds * 1000).rounded() / 1000)
        json["sign_ins_per_s"] = .number(seconds > 0 ? (Double(timed.latencies.count) / seconds * 10).rounded() / 10 : 0)
        if let summary = LatencySummary(timed.latencies) {
            json["p50_ms"] = .number(summary.p50.roundedMilliseconds)
            json["p99_ms"] = .number(summary.p99.roundedMilliseconds)
            json["max_ms"] = .number(summary.max.roundedMilliseconds)
        }
        // CPU per completed sign-in while the clock ran: the driver's own, and the server's with --server-pid.
        let succeeded = Double(max(timed.latencies.count, 1))
        func perSignIn(_ cpu: Duration) -> JSONValue { .number((cpu.inSeconds * 1000 / succeeded * 1000).rounded() / 1000) }
        json["driver_cpu_ms_per_sign_in"] = perSignIn(timed.cpu.driver)
        json["server_cpu_ms_per_sign_in"] = timed.cpu.server.map(perSignIn)
        if !timed.failures.isEmpty { json["failures"] = .object(timed.failures.mapValues { JSONValue.integer(Int64($0)) }) }
        return .object(json)
    }

    /// What the device hands the app: the identity token, the code and the raw nonce they were
    /// issued for, and the once-only name and email.
    struct DeviceCredential: Sendable {
        var identityToken: String
        var authorizationCode: String
        var nonce: String
        var givenName: String?
        var familyName: String?
        var email: String?
    }

    /// One complete native sign-in as the `index`th Apple ID (modulo their count); returns the session token.
    func signIn(_ httpClient: HTTPClient, as index: Int = 0) async throws(BenchSignInError) -> String {
        try await exchange(try await credential(httpClient, as: index), httpClient)
    }

    /// One sign-in as each Apple ID, one after the other.
    func signInEveryAppleID(_ httpClient: HTTPClient) async throws(BenchSignInError) {
        for index in appleIDs.indices { _ = try await signIn(httpClient, as: index) }
    }

    /// The first two steps: a nonce from the server, then the device sheet at the emulator, as the
    /// `index`th Apple ID (modulo their count).
    func credential(_ httpClient: HTTPClient, as index: Int = 0) async throws(BenchSignInError) -> DeviceCredential {
        let http = BenchHTTP(httpClient: httpClient)
        let nonce = try await http.post(nonceEndpoint, body: Self.emptyObject, step: "nonce", answer: BenchNonceAnswer.self).nonce
        guard !nonce.isEmpty else { throw BenchSignInError(kind: "nonce", "the server's POST /api/auth/nonce answer has no nonce") }
        // The nonce's hash is hexadecimal: nothing in it to escape.
        let form = deviceForms[index % deviceForms.count] + sha256Hex(nonce)
        let device = try await http.post(deviceEndpoint, body: ByteBuffer(string: form), step: "device", answer: BenchDeviceAnswer.self)
        guard !device.identityToken.isEmpty, !device.authorizationCode.isEmpty else {
            throw BenchSignInError(kind: "device", "the emulator's device answer has no identityToken or authorizationCode")
        }
        return DeviceCredential(
            identityToken: device.identityToken, authorizationCode: device.authorizationCode, nonce: nonce,
            givenName: device.fullName?.givenName, familyName: device.fullName?.familyName, email: device.email
        )
    }

    /// The last step: `POST /api/auth/apple` with the credential; returns the session token.
    func exchange(_ credential: DeviceCredential, _ httpClient: HTTPClient) async throws(BenchSignInError) -> String {
        let body: ByteBuffer
        do {
            body = ByteBuffer(bytes: try JSONEncoder().encode(BenchAppleSignInBody(credential)))
        } catch {
            throw BenchSignInError(kind: "apple", "cannot encode the request")
        }
        let session = try await BenchHTTP(httpClient: httpClient).post(appleEndpoint, body: body, step: "apple", answer: BenchSessionAnswer.self)
        guard !session.token.isEmpty else { throw BenchSignInError(kind: "apple", "the server's POST /api/auth/apple answer has no token") }
        return session.token
    }

    /// The body of `POST /api/auth/nonce`.
    private static let emptyObject = ByteBuffer(string: "{}")
}

/// A failed step of a benchmark sign-in; `kind` is the step (`nonce`, `device`, `apple`).
struct BenchSignInError: Error, CustomStringConvertible {
    let kind: String
    let description: String

    init(kind: String, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
