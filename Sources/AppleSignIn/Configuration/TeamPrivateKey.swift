import Crypto
import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads the team's Sign in with Apple key: a P-256 key in a PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`),
/// as in the `AuthKey_XXXXXXXXXX.p8` file Apple lets you download once.
public enum TeamPrivateKey {
    /// A key that is not a P-256 PKCS#8 PEM: a ``Code`` and a reason that never holds key material.
    public struct Failure: CodedError {
        /// A stable identifier for the problem, e.g. `"sec1_key"`; the set is closed.
        public typealias Code = ErrorCode<TeamPrivateKey.Failure>

        /// What is wrong.
        public let code: Code
        /// What is wrong, for a person; never key material.
        public let reason: String

        init(_ code: Code, _ reason: String) {
            self.code = code
            self.reason = reason
        }

    }

    /// Parses a .p8 PEM.
    public static func parse(pem: String) throws(Failure) -> P256.Signing.PrivateKey {
        let trimmed = pem.trimmingWhitespace()
        guard trimmed.hasPrefix("-----BEGIN PRIVATE KEY-----"), trimmed.hasSuffix("-----END PRIVATE KEY-----") else {
            if trimmed.hasPrefix("-----BEGIN EC PRIVATE KEY-----") {
                throw Failure(.sec1Key, "the key is a SEC1 EC key; Apple's .p8 keys are PKCS#8 (BEGIN PRIVATE KEY)")
            }
            throw Failure(.notPKCS8, "the key is not a PKCS#8 PEM (-----BEGIN PRIVATE KEY-----)")
        }
        do {
            return try P256.Signing.PrivateKey(pemRepresentation: trimmed)
        } catch {
            throw Failure(.notP256, "the key is not a P-256 (ES256) private key")
        }
    }
}

extension ErrorCode<TeamPrivateKey.Failure> {
    /// A SEC1 EC key (`BEGIN EC PRIVATE KEY`), not Apple's PKCS#8.
    public static var sec1Key: Self { Self("sec1_key") }
    /// Not a PKCS#8 PEM (`BEGIN PRIVATE KEY`).
    public static var notPKCS8: Self { Self("not_pkcs8") }
    /// A PKCS#8 PEM, but not a P-256 private key.
    public static var notP256: Self { Self("not_p256") }
}
