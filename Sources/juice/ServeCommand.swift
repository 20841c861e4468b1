import AppleIDEmulator
import AppleSignIn
import ArgumentParser
import Foundation
import Hummingbird
import JuiceEncodings
import JuiceServer
import Logging
import ServiceLifecycle
import UnixSignals

/// `juice serve`: the Juice web app. Without a configuration it runs in development mode, with an
/// Apple ID emulator in the same process that the app reaches over HTTP only.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Juice web app (development mode with a local Apple ID emulator when no configuration is given)."
    )

    @Option(help: "A juice.json (the toolkit's config.json plus public_url, database_url, refresh_token_key…). JUICE_* variables override it.")
    var config: String?

    @Option(help: "The address to bind.")
    var host: String?

    @Option(help: "The port to bind (default 8080).")
    var port: Int?

    @Option(name: .customLong("public-url"), help: "The URL people open (default http://localhost:PORT in development mode).")
    var publicURL: String?

    @Option(name: .customLong("data-dir"), help: "Where development-mode keys and the SQLite database live.")
    var dataDir: String = "juice-data"

    @Option(help: "sqlite:PATH or postgres://… (default: juice.sqlite in the data directory).")
    var database: String?

    @Option(name: .customLong("emulator-port"), help: "The port of the development-mode Apple ID emulator.")
    var emulatorPort: Int = 8081

    @Option(
        name: .customLong("emulator-smtp-port"),
        help: "The port of the development-mode emulator's private email relay (SMTP), which Juice mails its users through.")
    var emulatorSMTPPort: Int = 2525

    @Option(
        name: .customLong("demo-apple-ids"),
        help: "Development mode: how many demo Apple IDs the emulator has (appleseed@juice.test, then appleseed+2@juice.test …), for load tests."
    )
    var demoAppleIDs: Int = 1

    @Option(
        name: .customLong("emulator-seed"),
        help: "Development mode: a seed file (JSON: teams, apps, apple_ids — a Work & School account, say) added to the embedded emulator.")
    var emulatorSeed: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535") }
        guard (0...65535).contains(emulatorPort) else { throw ValidationError("--emulator-port must be between 0 and 65535") }
        guard (1...65535).contains(emulatorSMTPPort) else { throw ValidationError("--emulator-smtp-port must be between 1 and 65535") }
        guard (1...EmulatorConfiguration.maximumDemoAppleIDs).contains(demoAppleIDs) else {
            throw ValidationError("--demo-apple-ids must be between 1 and \(EmulatorConfiguration.maximumDemoAppleIDs)")
        }
    }

    func run() async throws {
        // Without its resource bundle the server cannot check new passwords: say so, and where it looked, before anything starts.
        do { try checkServerResources() } catch { throw CLIError("\(error)") }
        var logger = Logger(label: "juice")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        // swift-metrics users anywhere in the process report to the registry GET /metrics renders.
        ServerMetrics.bootstrapMetricsSystem()
        let environment = ProcessInfo.processInfo.environment
        let dataDirectory = URL(fileURLWithPath: dataDir, isDirectory: true).standardizedFileURL
        if config == nil && !ServerConfiguration.environmentConfigures(environment) {
            let development = try await DevelopmentStack.prepare(
                dataDirectory: dataDirectory, host: host ?? "127.0.0.1", port: port ?? 8080, publicURL: publicURL, database: database,
                emulatorPort: emulatorPort, emulatorSMTPPort: emulatorSMTPPort, demoAppleIDCount: demoAppleIDs, emulatorSeed: emulatorSeed,
                logger: logger
            )
            try await development.run()
            return
        }
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration.load(
                file: config.map { URL(fileURLWithPath: $0) }, environment: environment,
                overrides: .init(host: host, port: port, publicURL: publicURL, database: database), dataDirectory: dataDirectory
            )
        } catch {
            throw CLIError("invalid configuration:\n" + error.problems.map { "  \($0.field): \($0.message)" }.joined(separator: "\n"))
        }
        let app: any ApplicationProtocol
        do {
            let banner = ReadinessBanner(
                listeners: 1, text: "Juice is running at \(configuration.publicBase) (Apple: \(configuration.apple.appleBaseURL.absoluteString))\n")
            app = try await buildApplication(configuration: configuration, logger: logger, onServerRunning: banner.listening)
        } catch let error as DatabaseLocationError {
            throw CLIError("database: \(error.reason)")
        }
        let group = ServiceGroup(
            configuration: .init(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        )
        try await group.run()
    }
}
