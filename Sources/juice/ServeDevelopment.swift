import AppleIDEmulator
import AppleSignIn
import Crypto
import Foundation
import Hummingbird
import JuiceServer
import Logging
import ServiceLifecycle
import UnixSignals

/// Development mode of `juice serve`: a generated team key and refresh-token key (0600) in the data
/// directory, an Apple ID emulator on its own port in this process, and the app configured to
/// reach it over HTTP exactly as it would reach Apple.
struct DevelopmentStack {
    static let teamID = "JUICEDEV01"
    static let bundleID = "com.example.apple-samplecode.juice"
    static let servicesID = "com.example.apple-samplecode.juice.web"
    /// The sender of Juice's mail in development mode, registered with the emulator's relay.
    static let mailFrom = "Juice <hello@juice.test>"

    /// The team key's id and public half, kept next to the .p8.
    struct TeamKeyRecord: Codable {
        var teamID: String
        var keyID: String
        var publicKeyPEM: String
    }

    let emulator: any ApplicationProtocol
    let server: any ApplicationProtocol
    let logger: Logger

    static func prepare(
        dataDirectory: URL, host: String, port: Int, publicURL: String?, database: String?, emulatorPort: Int, emulatorSMTPPort: Int,
        demoAppleIDCount: Int = 1, emulatorSeed: String? = nil, readyJSON: Bool = false, logger: Logger
    ) async throws -> DevelopmentStack {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let keyFile = dataDirectory.appendingPathComponent("team-key.p8")
        let recordFile = dataDirectory.appendingPathComponent("team-key.json")
        let record: TeamKeyRecord
        if let data = try? Data(contentsOf: recordFile), let existing = try? JSONDecoder().decode(TeamKeyRecord.self, from: data),
            FileManager.default.fileExists(atPath: keyFile.path)
        {
            record = existing
        } else {
            try? FileManager.default.removeItem(at: keyFile)
            let generated: GeneratedTeamKey
            do {
                generated = try TeamKeyGenerator.generate(teamID: teamID, writingTo: keyFile)
            } catch {
                throw CLIError("cannot create the development team key: \(error.reason)")
            }
            record = TeamKeyRecord(teamID: generated.teamID, keyID: generated.keyID, publicKeyPEM: generated.publicKeyPEM)
            try JSONEncoder().encode(record).write(to: recordFile)
        }
        let serverSecret: SymmetricKey
        do {
            serverSecret = try SecretFile.loadOrCreateKey(at: dataDirectory.appendingPathComponent("refresh-token.key"))
        } catch {
            throw CLIError(error.reason)
        }
        let privateKey: P256.Signing.PrivateKey
        do {
            privateKey = try TeamPrivateKey.parse(pem: String(contentsOf: keyFile, encoding: .utf8))
        } catch {
            throw CLIError("the development team key \(keyFile.path) cannot be read; remove team-key.json to generate a new one")
        }

        let publicBase = (publicURL ?? "http://localhost:\(port)").trimmingSuffix("/")
        guard let publicURLValue = URL(string: publicBase), publicURLValue.host != nil else {
            throw CLIError("--public-url: \(publicBase) is not a URL")
        }
        let emulatorBase = "http://127.0.0.1:\(emulatorPort)"
        let demoAppleIDs = EmulatorConfiguration.demoAppleIDs(count: demoAppleIDCount)
        let demo = EmulatorConfiguration.demoAppleID
        let moreDemoAppleIDs =
            demoAppleIDs.count > 1
            ? "\n                  and \(demoAppleIDs.count - 1) more: \(EmulatorConfiguration.numberedEmail(demo.email, 2)) … "
                + "\(EmulatorConfiguration.numberedEmail(demo.email, demoAppleIDs.count)), same password" : ""
        var emulatorConfiguration = EmulatorConfiguration(
            teams: [.init(teamID: record.teamID, keys: [.init(keyID: record.keyID, publicKeyPEM: record.publicKeyPEM)])],
            apps: [
                .init(
                    teamID: record.teamID, bundleID: bundleID, servicesIDs: [servicesID], redirectURIs: [publicBase + "/auth/apple/callback"],
                    notificationURL: publicBase + "/apple/notifications", emailSources: ["hello@juice.test"], allowLocalRedirects: true
                )
            ],
            appleIDs: demoAppleIDs
        )
        if let emulatorSeed { emulatorConfiguration = try EmulatorSeedFile.merge(emulatorSeed, into: emulatorConfiguration) }
        let demoEmails = Set(demoAppleIDs.map(\.email))
        let seededAppleIDs = emulatorConfiguration.appleIDs.filter { !demoEmails.contains($0.email) }
        let seeded =
            seededAppleIDs.isEmpty
            ? ""
            : "\n  Seeded:         "
                + seededAppleIDs.map { $0.email + ($0.managed.map { " (Work & School: \($0.organization))" } ?? "") }.joined(separator: ", ")
        // The emulator's HTTP and SMTP listeners and the app's.
        let banner = ReadinessBanner(
            listeners: 3,
            text: """
                Juice (development mode)
                  Open:           \(publicBase)
                  Apple (local):  \(emulatorBase)
                  Mail relay:     smtp://127.0.0.1:\(emulatorSMTPPort)  (Hide My Email; inbox at \(emulatorBase)/account)
                  Demo Apple ID:  \(demo.email) / \(demo.password)  (\(demo.firstName) \(demo.lastName))\(moreDemoAppleIDs)\(seeded)
                Press Ctrl-C to stop.

                """,
            readyLine: readyJSON ? ReadinessBanner.serveReadyLine(url: publicBase, apple: emulatorBase) : nil)
        var emulatorLogger = logger
        emulatorLogger[metadataKey: "component"] = "emulator"
        let emulator = try await buildEmulatorApplication(
            configuration: emulatorConfiguration, dataDirectory: dataDirectory.appendingPathComponent("emulator"), host: "127.0.0.1",
            port: emulatorPort, options: EmulatorOptions(smtp: SMTPOptions(port: emulatorSMTPPort)),
            logger: emulatorLogger, onServerRunning: banner.listening, onSMTPRunning: banner.listening
        )

        var location = DatabaseLocation.sqlite(path: dataDirectory.appendingPathComponent("juice.sqlite").path)
        if let database {
            do {
                location = try DatabaseLocation(parsing: database)
            } catch {
                throw CLIError("--database: \(error.reason)")
            }
        }
        let apple = AppleSignInConfiguration(
            clientID: servicesID, teamID: record.teamID, keyID: record.keyID, privateKey: privateKey, additionalClientIDs: [bundleID],
            appleBaseURL: URL(string: emulatorBase)!, issuer: emulatorBase
        )
        var configuration = ServerConfiguration(
            apple: apple, publicURL: publicURLValue, host: host, port: port, database: location, serverSecret: serverSecret
        )
        // Juice mails its users through the emulator's relay, from the sender registered there.
        guard let sender = MailSender(parsing: mailFrom) else { throw CLIError("the development mail sender \(mailFrom) is not an address") }
        configuration.mail = MailSettings(smtpHost: "127.0.0.1", smtpPort: emulatorSMTPPort, sender: sender)
        configuration.mailDeliveryInterval = .seconds(2)
        // One developer (or a schemathesis run) on loopback is the only client: the per-address sign-up
        // limit would only get in the way.
        configuration.signUpLimit = 10_000
        let server: any ApplicationProtocol
        do {
            server = try await buildApplication(configuration: configuration, logger: logger, onServerRunning: banner.listening)
        } catch let error as DatabaseLocationError {
            throw CLIError("--database: \(error.reason)")
        }
        return DevelopmentStack(emulator: emulator, server: server, logger: logger)
    }

    /// Runs both until SIGTERM or SIGINT; the banner appears once all three listeners are bound.
    func run() async throws {
        let group = ServiceGroup(
            configuration: .init(services: [emulator, server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        )
        try await group.run()
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
