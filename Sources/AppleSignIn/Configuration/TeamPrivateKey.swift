import Crypto
import Foundation

/// Reads the team's Sign in with Apple key: a P-256 key in a PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`),
/// as in the `AuthKey_XXXXXXXXXX.p8` file Apple lets you download once.
public enum TeamPrivateKey {
    /// A key that is not a P-256 PKCS#8 PEM: a ``Code`` and a reason that never holds key material.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// A stable identifier for the problem, e.g. `"sec1_key"`; the set is closed.
        public struct Code: Sendable, Hashable, CustomStringConvertible {
            private enum Base: String, Sendable {
                case sec1Key = "sec1_key"
                case notPKCS8 = "not_pkcs8"
                case notP256 = "not_p256"
            }

            private let base: Base

            private init(_ base: Base) { self.base = base }

            /// The code's stable string, e.g. for a log line or an error body.
            public var description: String { base.rawValue }

            /// A SEC1 EC key (`BEGIN EC PRIVATE KEY`), not Apple's PKCS#8.
            public static let sec1Key = Code(.sec1Key)

            /// Not a PKCS#8 PEM (`BEGIN PRIVATE KEY`).
            public static let notPKCS8 = Code(.notPKCS8)

            /// A PKCS#8 PEM, but not a P-256 private key.
            public static let notP256 = Code(.notP256)
        }

        /// What is wrong.
        public let code: Code
        /// What is wrong, for a person; never key material.
        public let reason: String

        init(_ code: Code, _ reason: String) {
            self.code = code
            self.reason = reason
        }

        public var description: String { reason }

        /// Errors are equal when their codes are.
        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
        public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    }

    /// Parses a .p8 PEM.
    public static func parse(pem: String) throws(Failure) -> P256.Signing.PrivateKey {
        let trimmed = pem.trimmingCharacters(in: .whitespacesAndNewlines)
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
