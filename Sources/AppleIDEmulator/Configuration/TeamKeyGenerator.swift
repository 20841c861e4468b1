import Crypto
import JuiceEncodings
import JuiceInfrastructure

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A team key created by ``TeamKeyGenerator``: what goes into the emulator configuration.
public struct GeneratedTeamKey: Sendable, Hashable {
    /// The team the key belongs to.
    public let teamID: String
    /// The new key's 10-character id (`kid`).
    public let keyID: String
    /// The public key, PEM, for `teams[].keys[].public_key_pem`.
    public let publicKeyPEM: String
    /// Where the private key (.p8, PKCS#8 PEM, mode 0600) was written.
    public let privateKeyPath: String

    /// The configuration entry for this key.
    public var configurationKey: EmulatorConfiguration.Key {
        EmulatorConfiguration.Key(keyID: keyID, publicKeyPEM: publicKeyPEM)
    }
}

/// Creates Sign in with Apple team keys, as the developer portal does: a P-256 private key in a
/// .p8 file (PKCS#8 PEM) and a 10-character key id.
///
/// ```swift
/// let key = try TeamKeyGenerator.generate(teamID: "ABCDE12345", writingTo: URL(fileURLWithPath: "AuthKey.p8"))
/// print(key.keyID, key.publicKeyPEM)
/// ```
public enum TeamKeyGenerator {
    /// Why a key could not be created: a ``Code`` and a reason.
    public struct Failure: CodedError {
        /// A stable identifier for the problem, e.g. `"invalid_team_id"`; the set is closed.
        public typealias Code = ErrorCode<TeamKeyGenerator.Failure>

        /// What is wrong.
        public let code: Code
        /// What is wrong, for a person; never key material.
        public let reason: String

        init(_ code: Code, _ reason: String) {
            self.code = code
            self.reason = reason
        }

    }

    /// Generates a key and writes its private half to `url` with mode 0600.
    /// - Parameters:
    ///   - teamID: The team id (10 uppercase letters or digits).
    ///   - url: The .p8 file to create; an existing file is never overwritten.
    ///   - random: The source of the key id.
    /// - Throws: ``Failure`` for a bad team id or a file that exists or cannot be written.
    public static func generate(teamID: String, writingTo url: URL, random: EmulatorRandom = .system) throws(Failure) -> GeneratedTeamKey {
        guard EmulatorConfiguration.isAppleIdentifier(teamID) else {
            throw Failure(.invalidTeamID, "the team id \(EmulatorConfiguration.quoted(teamID)) must be 10 uppercase letters or digits")
        }
        let privateKey = P256.Signing.PrivateKey()
        try writeSecretFile(privateKey.pemRepresentation + "\n", to: url)
        return GeneratedTeamKey(
            teamID: teamID,
            keyID: random.string(length: 10, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
            publicKeyPEM: privateKey.publicKey.pemRepresentation,
            privateKeyPath: url.path
        )
    }

    /// Creates `url` with mode 0600 (never following or replacing an existing file) and writes `text`.
    static func writeSecretFile(_ text: String, to url: URL) throws(Failure) {
        if let problem = OwnerOnlyFile.create(url, contents: text) { throw Failure(.cannotWrite, "\(url.path) \(problem)") }
    }
}

extension ErrorCode<TeamKeyGenerator.Failure> {
    /// The team id is not 10 uppercase letters or digits.
    public static var invalidTeamID: Self { Self("invalid_team_id") }
    /// The key file exists already or cannot be created.
    public static var cannotWrite: Self { Self("cannot_write") }
}
