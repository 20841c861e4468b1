import CryptoExtras
import Foundation
import JuiceEncodings
import Logging

/// What the conformance kit (`AppleSignInConformance`) borrows from the emulator: the same RS256
/// signer, key format, encodings and `c_hash` rule, so the kit's tokens are the emulator's tokens and
/// only the defects a case asks for differ. Kit-only: nothing here is reachable over HTTP.
package enum ConformanceSupport {
    /// An RS256 compact JWS of `claims`, its header naming `keyID` (the emulator's signer).
    package static func signRS256(_ claims: some Encodable, keyID: String, privateKey: _RSA.Signing.PrivateKey) throws -> String {
        try JWSSigner.sign(claims, keyID: keyID, privateKey: privateKey)
    }

    /// Apple's `c_hash`/`at_hash`: base64url of the left half of SHA-256.
    package static func leftHalfHash(_ value: String) -> String {
        Hashing.leftHalfHash(value)
    }

    /// `/auth/keys`' body for `keys`, in Apple's shape.
    package static func keySetJSON(_ keys: [(keyID: String, publicKey: _RSA.Signing.PublicKey)]) throws -> Data {
        let published = try keys.map { try JSONWebKey(kid: $0.keyID, publicKey: $0.publicKey) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(["keys": published])
    }
}

/// The emulator's client-secret check for the one team, key and app a conformance run plays Apple for.
///
/// Backed by an emulator store in a directory of its own (the kit removes it when done), so the check
/// is exactly the one `/auth/token` runs: ES256 by the team key, `iss`/`sub`/`aud`, at most six months.
package final class ConformanceClientSecretCheck: Sendable {
    private let store: EmulatorStore
    private let validator: ClientSecretValidator

    private init(store: EmulatorStore, validator: ClientSecretValidator) {
        self.store = store
        self.validator = validator
    }

    /// Opens the check.
    /// - Parameters:
    ///   - clientIDs: The bundle id first, then the Services IDs the backend signs in with.
    package static func open(
        teamID: String, keyID: String, publicKeyPEM: String, clientIDs: [String], baseURL: String, issuer: String, directory: URL,
        time: EmulatorTime
    ) async throws -> ConformanceClientSecretCheck {
        let bundleID = clientIDs.first ?? ""
        let configuration = EmulatorConfiguration(
            teams: [.init(teamID: teamID, keys: [.init(keyID: keyID, publicKeyPEM: publicKeyPEM)])],
            apps: [.init(teamID: teamID, bundleID: bundleID, servicesIDs: Array(clientIDs.dropFirst()))],
            appleIDs: []
        )
        let store = try await EmulatorStore.open(
            directory: directory, logger: Logger(label: "conformance", factory: { _ in SwiftLogNoOpLogHandler() }))
        let directory = ClientDirectory(live: LiveConfiguration(configuration), store: store)
        do {
            try await directory.prepare()
        } catch {
            await store.close()
            throw error
        }
        let address = EmulatorAddress(host: "127.0.0.1", port: 0, publicURL: baseURL, issuer: issuer)
        return ConformanceClientSecretCheck(store: store, validator: ClientSecretValidator(directory: directory, address: address, time: time))
    }

    /// `nil` when `secret` is a valid client secret for `clientID`, else Apple's `error_description`.
    package func problem(secret: String?, clientID: String?) async -> String? {
        do {
            _ = try await validator.validate(secret: secret, clientID: clientID)
            return nil
        } catch let error as OAuthError {
            return error.description ?? error.code
        } catch {
            return "the client secret could not be checked"
        }
    }

    /// Closes the store.
    package func close() async {
        await store.close()
    }
}
