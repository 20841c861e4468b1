import AppleSignIn
import ArgumentParser
import Foundation
import JuiceEncodings

/// `juice verify-token`: verifies an Apple identity token and prints its claims as JSON.
struct VerifyTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-token",
        abstract: "Verify an Apple identity token; print its claims (exit 0) or the refusal (exit 1) as JSON."
    )

    @Argument(help: "The identity token, or - to read it from standard input.")
    var token: String

    @Option(name: .customLong("audience"), help: "An accepted client id (repeatable).")
    var audiences: [String] = []

    @Option(help: "A JWKS file holding Apple's public keys.")
    var jwks: String?

    @Option(name: .customLong("keys-url"), help: "A URL serving Apple's public keys (e.g. https://appleid.apple.com/auth/keys).")
    var keysURL: String?

    @Option(help: "The required issuer.")
    var issuer: String = AppleSignInConfiguration.appleIssuer

    @Option(help: "The nonce the authorization request carried.")
    var nonce: String?

    @Option(help: "The authorization code delivered with the token (checks c_hash).")
    var code: String?

    @Option(help: "Verify as of this time (UNIX seconds) instead of now.")
    var now: Double?

    func validate() throws {
        guard !audiences.isEmpty else { throw ValidationError("give at least one --audience") }
        guard (jwks == nil) != (keysURL == nil) else { throw ValidationError("give exactly one of --jwks FILE or --keys-url URL") }
        if let now, !(0...Self.latestTime).contains(now) {
            throw ValidationError("--now must be UNIX seconds between 0 and \(Int(Self.latestTime)) (9999-12-31)")
        }
    }

    /// The last second of the year 9999, the latest `--now`.
    static let latestTime: Double = 253_402_300_799

    func run() async throws {
        let result = await verify()
        // The reason can quote the token's claims and the arguments: printed so that a terminal shows them.
        print(result.output.jsonTerminalEscaped)
        if !result.succeeded { throw ExitCode(1) }
    }

    private func verify() async -> (succeeded: Bool, output: String) {
        func refusal(_ code: String, _ reason: String) -> (Bool, String) {
            (false, JSONValue.object(["error": .string(code), "reason": .string(reason)]).jsonString())
        }
        let tokenText: String
        if token == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            tokenText = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        } else {
            tokenText = token.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let source: any AppleKeySource
        if let jwks {
            guard let data = FileManager.default.contents(atPath: jwks) else {
                return refusal("keys_unavailable", "cannot read the JWKS file \(jwks)")
            }
            do {
                source = StaticAppleKeySource(keySet: try JSONWebKeySet(jwks: data))
            } catch {
                return refusal("keys_unavailable", "\(jwks): \(error.reason)")
            }
        } else {
            source = HTTPAppleKeySource(url: keysURL ?? "")
        }
        let time: TimeSource = now.map { .fixed(Date(timeIntervalSince1970: $0)) } ?? .system
        let keys = AppleKeySet(source: source, time: time)
        let verifier = IdentityTokenVerifier(keys: keys, issuer: issuer, audiences: audiences, time: time)
        do {
            let identity = try await verifier.verify(tokenText, nonceClaim: nonce, authorizationCode: code)
            return (true, JSONValue.object(identity.normalizedClaims).jsonString())
        } catch {
            return refusal(error.code.description, error.reason)
        }
    }
}
