import AppleIDEmulator
import ArgumentParser
import Foundation
import Hummingbird

/// `juice emulator`: runs a local appleid.apple.com (the default), or creates a team key (`new-key`).
struct EmulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulator",
        abstract: "Run a local Sign in with Apple server (appleid.apple.com), or create a team key.",
        subcommands: [EmulatorRunCommand.self, EmulatorNewKeyCommand.self],
        defaultSubcommand: EmulatorRunCommand.self
    )
}

/// `juice emulator [run] --port P --config FILE --data-dir DIR [--issuer URL]`.
struct EmulatorRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Serve Apple's endpoints and pages from a configuration file; state persists in the data directory."
    )

    @Option(help: "The port to listen on (0 picks a free one).")
    var port: Int = 8081

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "The emulator configuration (JSON: teams, apps, apple_ids).")
    var config: String

    @Option(name: .customLong("data-dir"), help: "Where the emulator keeps its SQLite store.")
    var dataDirectory: String = "emulator-data"

    @Option(help: "The iss of every token (default: the base URL). https://appleid.apple.com issues tokens exactly as Apple does.")
    var issuer: String?

    @Option(name: .customLong("public-url"), help: "The URL clients reach the emulator at, if not http://HOST:PORT.")
    var publicURL: String?

    @Option(name: .customLong("smtp-port"), help: "Run the private email relay (SMTP) on this port (0 picks a free one); off when absent.")
    var smtpPort: Int?

    @Option(name: .customLong("smtp-max-size"), help: "The largest message the relay accepts, in bytes.")
    var smtpMaximumSize: Int = 10 * 1024 * 1024

    @Option(name: .customLong("smtp-idle-timeout"), help: "Seconds of silence before the relay closes a connection.")
    var smtpIdleTimeout: Int = 300

    @Option(help: "A seed file (JSON: teams, apps, apple_ids) added to the configuration at start; a reset returns to both.")
    var seed: String?

    @Option(
        name: .customLong("relay-domain"),
        help: "The domain new Hide My Email addresses are issued on: private.icloud.com (Apple's since 2026), privaterelay.appleid.com or icloud.com."
    )
    var relayDomain: String = RelayDomain.privateICloud.rawValue

    @Option(name: .customLong("http-idle-timeout"), help: "Seconds before the HTTP server closes a connection with no request in progress.")
    var httpIdleTimeout: Int = 60

    @Option(name: .customLong("http-header-timeout"), help: "Seconds a request's head may take to arrive, from its first byte.")
    var httpHeaderTimeout: Int = 10

    @Option(name: .customLong("http-body-timeout"), help: "Seconds a request's body may take to arrive, from the end of its head.")
    var httpBodyTimeout: Int = 30

    @Option(
        name: .customLong("signing-keys"),
        help: "A PEM file of the emulator's two RSA signing keys, reused on a new data directory (made, mode 0600, when absent).")
    var signingKeys: String?

    @Flag(
        name: .customLong("ready-json"),
        help: "Once every listener accepts connections, print one JSON line on stdout: {\"ready\", \"url\", \"issuer\", \"port\", \"smtp_port\"}.")
    var readyJSON = false

    func validate() throws {
        guard RelayDomain(rawValue: relayDomain) != nil else {
            throw ValidationError("--relay-domain must be one of \(RelayDomain.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        if let smtpPort, !(0...65535).contains(smtpPort) { throw ValidationError("--smtp-port must be between 0 and 65535") }
        guard (1024...1_073_741_824).contains(smtpMaximumSize) else { throw ValidationError("--smtp-max-size must be between 1024 and 1073741824") }
        guard (1...86_400).contains(smtpIdleTimeout) else { throw ValidationError("--smtp-idle-timeout must be between 1 and 86400 seconds") }
        for (name, value, limit) in [
            ("--http-idle-timeout", httpIdleTimeout, 86_400), ("--http-header-timeout", httpHeaderTimeout, 3600),
            ("--http-body-timeout", httpBodyTimeout, 3600),
        ] where !(1...limit).contains(value) {
            throw ValidationError("\(name) must be between 1 and \(limit) seconds")
        }
        for (name, value) in [("--issuer", issuer), ("--public-url", publicURL)] {
            if let value, URL(string: value)?.scheme == nil { throw ValidationError("\(name) must be an absolute URL") }
        }
    }

    func run() async throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: config))
        } catch {
            throw CLIError("cannot read the configuration file \(config)")
        }
        var configuration: EmulatorConfiguration
        do {
            configuration = try EmulatorConfiguration(json: data)
        } catch {
            throw CLIError("\(config): \(error.reason)")
        }
        if let seed { configuration = try EmulatorSeedFile.merge(seed, into: configuration) }
        var options = EmulatorOptions(
            smtp: smtpPort.map { SMTPOptions(host: host, port: $0, maximumMessageSize: smtpMaximumSize, idleTimeout: .seconds(smtpIdleTimeout)) },
            relayDomain: RelayDomain(rawValue: relayDomain) ?? .privateICloud)
        options.httpIdleTimeout = .seconds(httpIdleTimeout)
        options.httpHeaderTimeout = .seconds(httpHeaderTimeout)
        options.httpBodyTimeout = .seconds(httpBodyTimeout)
        let ready = readyJSON ? EmulatorReadyLine(host: host, publicURL: publicURL, issuer: issuer, expectsSMTP: smtpPort != nil) : nil
        let random = try signingKeys.map { EmulatorRandom.system.withFirstSigningKeys(try EmulatorSigningKeyFile.keys(at: $0)) } ?? .system
        let app = try await buildEmulatorApplication(
            configuration: configuration,
            dataDirectory: URL(fileURLWithPath: dataDirectory),
            host: host,
            port: port,
            issuer: issuer,
            publicURL: publicURL,
            random: random,
            options: options,
            onServerRunning: { port in await ready?.httpListening(port) },
            onSMTPRunning: { port in
                print("Private email relay (SMTP) on \(host):\(port)")
                await ready?.smtpListening(port)
            }
        )
        try await app.runService()
    }
}

/// `juice emulator new-key --team-id T --out FILE.p8`.
struct EmulatorNewKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-key",
        abstract: "Create a Sign in with Apple key (P-256 .p8, mode 0600) and print its key id and public PEM for the configuration."
    )

    @Option(name: .customLong("team-id"), help: "The team the key belongs to (10 uppercase letters or digits).")
    var teamID: String

    @Option(help: "The .p8 file to create (never overwritten).")
    var out: String

    func run() async throws {
        let key: GeneratedTeamKey
        do {
            key = try TeamKeyGenerator.generate(teamID: teamID, writingTo: URL(fileURLWithPath: out))
        } catch {
            throw CLIError(error.reason)
        }
        print("Team ID:    \(key.teamID)")
        print("Key ID:     \(key.keyID)")
        print("Private key: \(key.privateKeyPath) (mode 0600; keep it secret)")
        print("")
        print("Add to the emulator configuration under teams[].keys:")
        let entry = ["key_id": key.keyID, "public_key_pem": key.publicKeyPEM]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(entry), as: UTF8.self))
    }
}
