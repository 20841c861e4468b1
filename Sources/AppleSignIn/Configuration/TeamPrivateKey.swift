import Crypto
import Foundation

/// Reads the team's Sign in with Apple key: a P-256 key in a PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`),
/// as in the `AuthKey_XXXXXXXXXX.p8` file Apple lets you download once.
public enum TeamPrivateKey {
    /// A key that is not a P-256 PKCS#8 PEM.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What is wrong; never contains key material.
        public let reason: String
        public var description: String { reason }
    }

    /// Parses a .p8 PEM.
    public static func parse(pem: String) throws(Failure) -> P256.Signing.PrivateKey {
        let trimmed = pem.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("-----BEGIN PRIVATE KEY-----"), trimmed.hasSuffix("-----END PRIVATE KEY-----") else {
            if trimmed.hasPrefix("-----BEGIN EC PRIVATE KEY-----") {
                throw Failure(reason: "the key is a SEC1 EC key; Apple's .p8 keys are PKCS#8 (BEGIN PRIVATE KEY)")
            }
            throw Failure(reason: "the key is not a PKCS#8 PEM (-----BEGIN PRIVATE KEY-----)")
        }
        do {
            return try P256.Signing.PrivateKey(pemRepresentation: trimmed)
        } catch {
            throw Failure(reason: "the key is not a P-256 (ES256) private key")
        }
    }
}
