import AppleSignIn
import ArgumentParser
import Foundation
import JuiceEncodings

/// `juice client-secret`: prints a client secret signed with the team's .p8 key.
struct ClientSecretCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client-secret",
        abstract: "Print an ES256 client secret for Apple's REST endpoints."
    )

    @OptionGroup var team: TeamKeyOptions

    @Option(name: .customLong("client-id"), help: "The client id the secret is used with (sub).")
    var clientID: String

    @Option(help: "The team's .p8 private key file.")
    var key: String

    @Option(help: "Seconds the secret lives (at most 15777000).")
    var lifetime: Double = 3600

    @Option(help: "The audience (aud).")
    var audience: String = AppleSignInConfiguration.appleIssuer

    func run() async throws {
        var document: [String: JSONValue] = [
            "client_id": .string(clientID), "team_id": .string(team.teamID), "key_id": .string(team.keyID),
            "private_key_path": .string(key),
        ]
        document["issuer"] = nil
        let configuration: AppleSignInConfiguration
        do {
            configuration = try AppleSignInConfiguration(
                json: Data(JSONValue.object(document).jsonString().utf8),
                baseDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            )
        } catch {
            throw CLIError(
                error.problems.map {
                    "--" + $0.field.replacingOccurrences(of: "_", with: "-").replacingOccurrences(of: "private-key-path", with: "key") + ": "
                        + $0.message
                }.joined(separator: "\n"))
        }
        do {
            let signer = try ClientSecretSigner(
                teamID: configuration.teamID,
                keyID: configuration.keyID,
                privateKey: configuration.privateKey,
                lifetime: lifetime,
                audience: audience
            )
            print(try await signer.secret(for: clientID).jwt)
        } catch {
            throw CLIError(error.reason)
        }
    }
}
