/// The COSE signature algorithms a passkey may use (IANA "COSE Algorithms"), by their registered number.
package enum COSEAlgorithm: Int, Sendable, Hashable, CaseIterable, Codable {
    /// ECDSA with SHA-256 on P-256.
    case es256 = -7
    /// Ed25519 (EdDSA).
    case edDSA = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = -257

    /// The name used in logs and JSON (`ES256`, `EdDSA`, `RS256`).
    package var name: String {
        switch self {
        case .es256: "ES256"
        case .edDSA: "EdDSA"
        case .rs256: "RS256"
        }
    }
}
