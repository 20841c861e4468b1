import AppleSignInConformance
import ArgumentParser
import Foundation
import JuiceEncodings

/// `juice conformance`: plays Apple against any Sign in with Apple backend and reports a verdict per case.
struct ConformanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Test a Sign in with Apple backend by playing Apple: a verdict per case.",
        discussion: """
            Configure the backend to use http://127.0.0.1:PORT as Apple's base URL first (and --issuer if it \
            insists on https://appleid.apple.com). Verdicts: PASSED, FAILED, WARNING, INCONCLUSIVE, SKIPPED. \
            Exit status: 0 no case FAILED (warnings, inconclusive and skipped cases do not fail a run), \
            1 at least one case FAILED, 2 the run could not start (bad options, port taken, backend unreachable, \
            start URL not redirecting to the kit).
            """
    )

    @Flag(name: .customLong("list-cases"), help: "Print the case catalogue (id, flow, what it checks, severity, reference) and exit.")
    var listCases = false

    @Option(help: "The catalogue's format with --list-cases: text or json.")
    var format: String = "text"

    @Option(help: "The backend's base URL, e.g. http://127.0.0.1:9000.")
    var backend: String?

    @Option(help: "The loopback port the kit serves Apple on; 0 lets the kernel pick one (see --ready-json).")
    var port: Int?

    @Flag(
        name: .customLong("ready-json"),
        help: "Once the kit accepts connections, print one JSON line on stdout: {\"ready\", \"url\", \"issuer\", \"port\", \"smtp_port\": null}.")
    var readyJSON = false

    @Option(
        name: .customLong("wait-for-backend"),
        help: "Seconds (0-600) to wait, once the kit listens, for the backend to be configured with its URL before the first case.")
    var waitForBackend: Int = 0

    @Option(help: "The issuer (iss) of the kit's tokens (default: http://127.0.0.1:PORT).")
    var issuer: String?

    @Option(name: .customLong("team-id"), help: "The 10-character team id (the client secret's iss).")
    var teamID: String?

    @Option(name: .customLong("key-id"), help: "The 10-character id of the team's Sign in with Apple key (the client secret's kid).")
    var keyID: String?

    @Option(name: .customLong("team-key"), help: "The backend's team key: its .p8 or the public-key PEM.")
    var teamKey: String?

    @Option(name: .customLong("client-id"), help: "The Services ID of the backend's web sign-in.")
    var clientID: String?

    @Option(name: .customLong("redirect-uri"), help: "The backend's registered redirect URI (form_post callback).")
    var redirectURI: String?

    @Flag(
        name: .customLong("drifted-discovery"),
        help: "Apple's discovery names the issuer https://account.apple.com for the whole run (June 2025): start the backend during the run.")
    var driftedDiscovery = false

    @Option(name: .customLong("bundle-id"), help: "The app's bundle id (native sign-ins, notifications); default: the client id.")
    var bundleID: String?

    @Option(help: "The path that starts a web sign-in (default /auth/apple).")
    var start: String?

    @Flag(
        name: .customLong("api-only"),
        help: "An API-only backend (native sign-in only): no --start; the web cases are SKIPPED, the native ones (--native) run.")
    var apiOnly = false

    @Option(
        name: .customLong("start-method"),
        help: "GET: the start path redirects to Apple. POST: it is a page whose form (CSRF fields included) starts the sign-in.")
    var startMethod: String = "GET"

    @Option(help: "A path answering 2xx only when signed in (checked with the cookies the callback set).")
    var probe: String?

    @Option(help: "The native sign-in endpoint (JSON {identityToken, authorizationCode, nonce, user}, or see --native-body).")
    var native: String?

    @Option(
        name: .customLong("native-body"),
        help: "The native body's shape: juice ({identityToken, authorizationCode, nonce, user}) or rest-auth (dj-rest-auth: {code, id_token}).")
    var nativeBody: String = "juice"

    @Option(name: .customLong("native-nonce"), help: "A POST endpoint issuing native nonces ({\"nonce\"}), if the backend requires its own.")
    var nativeNonce: String?

    @Option(help: "The server-to-server notification endpoint.")
    var notifications: String?

    @Option(help: "The account-deletion endpoint (POST by a signed-in browser): deleting must call Apple's /auth/revoke.")
    var delete: String?

    @Option(help: "Write the JSON report here.")
    var report: String?

    @Option(help: "Write a JUnit XML report here.")
    var junit: String?

    @Option(help: "Write a self-contained HTML report here (one file, no external assets).")
    var html: String?

    @Option(help: "Seconds one request to the backend may take (1-120).")
    var timeout: Int = 10

    @Option(help: "Seconds the backend may take to refuse a native sign-in while Apple's token endpoint stalls (native-apple-slow; 1-120).")
    var appleStallBound: Int = 15

    func validate() throws {
        if listCases {
            guard ["text", "json"].contains(format) else { throw ValidationError("--format must be text or json") }
            return
        }
        let required: [(String, Bool)] = [
            ("--backend", backend == nil), ("--port", port == nil), ("--team-id", teamID == nil), ("--key-id", keyID == nil),
            ("--team-key", teamKey == nil), ("--client-id", clientID == nil), ("--redirect-uri", redirectURI == nil),
        ]
        if let missing = required.first(where: \.1)?.0 { throw ValidationError("Missing expected argument '\(missing)'") }
        guard let port, (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535 (0 picks a free one)") }
        guard (0...600).contains(waitForBackend) else { throw ValidationError("--wait-for-backend must be between 0 and 600 seconds") }
    }

    func run() async throws {
        if listCases {
            print(
                format == "json" ? String(decoding: try ConformanceCatalog.listingJSON(), as: UTF8.self) : ConformanceCatalog.listing(),
                terminator: "")
            return
        }
        do {
            // Port 0: the kernel's pick, held until the kit's server has bound it (KitPortReservation).
            let reservation = port == 0 ? try KitPortReservation() : nil
            let options = try options(port: reservation?.port ?? port)
            let announce = KitAnnouncement(readyJSON: readyJSON, issuer: issuer, waitForBackend: waitForBackend)
            let report = try await ConformanceRun(
                options: options,
                onListening: { bound in
                    reservation?.release()
                    await announce.listening(options, port: bound)
                }
            ).run()
            print(report.table(), terminator: "")
            if let path = self.report { try write(try report.json(), to: path) }
            if let path = junit { try write(Data(report.junit().utf8), to: path) }
            if let path = html { try write(Data(report.html().utf8), to: path) }
            if report.exitCode != 0 { throw ExitCode(report.exitCode) }
        } catch let error as ConformanceStartError {
            FileHandle.standardError.write(Data("juice conformance could not start: \(error.reason.terminalEscaped)\n".utf8))
            throw ExitCode(2)
        }
    }

    private func options(port: Int?) throws(ConformanceStartError) -> ConformanceOptions {
        guard (1...120).contains(timeout) else { throw ConformanceStartError(.invalidOptions, "--timeout must be between 1 and 120 seconds") }
        guard (1...120).contains(appleStallBound) else {
            throw ConformanceStartError(.invalidOptions, "--apple-stall-bound must be between 1 and 120 seconds")
        }
        // validate() has required each of these unless --list-cases.
        guard let backend, let port, let teamID, let keyID, let teamKey, let clientID, let redirectURI else {
            throw ConformanceStartError(
                .invalidOptions, "--backend, --port, --team-id, --key-id, --team-key, --client-id and --redirect-uri are required")
        }
        guard let data = FileManager.default.contents(atPath: teamKey), data.count <= 16_384 else {
            throw ConformanceStartError(.invalidOptions, "--team-key: cannot read \(teamKey)")
        }
        var options = ConformanceOptions(
            backend: backend, port: port, issuer: issuer, teamID: teamID, keyID: keyID,
            teamPublicKeyPEM: try ConformanceOptions.teamPublicKeyPEM(fromPEM: String(decoding: data, as: UTF8.self)), clientID: clientID,
            redirectURI: redirectURI, bundleID: bundleID)
        options.driftedDiscovery = driftedDiscovery
        // API-only is said, never inferred: a run that merely leaves --start out keeps the default web start.
        if apiOnly {
            guard start == nil else {
                throw ConformanceStartError(.invalidOptions, "--api-only and --start exclude each other: an API-only backend has no web start")
            }
            guard native != nil else {
                throw ConformanceStartError(.invalidOptions, "--api-only needs --native: the native endpoint is what the kit judges")
            }
        }
        options.startPath = apiOnly ? nil : start ?? "/auth/apple"
        guard let body = NativeBody(rawValue: nativeBody.lowercased()) else {
            throw ConformanceStartError(.invalidOptions, "--native-body must be juice or rest-auth")
        }
        options.nativeBody = body
        guard let method = ConformanceOptions.StartMethod(rawValue: startMethod.uppercased()) else {
            throw ConformanceStartError(.invalidOptions, "--start-method must be GET or POST")
        }
        options.startMethod = method
        options.deletePath = delete
        options.probePath = probe
        options.nativePath = native
        options.nativeNoncePath = nativeNonce
        options.notificationsPath = notifications
        options.requestTimeout = .seconds(timeout)
        options.appleStallBound = .seconds(appleStallBound)
        return options
    }

    private func write(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw CLIError("cannot write \(path)")
        }
    }
}
