/// A `packed` attestation statement (WebAuthn §8.2), read: a map of an integer `alg`, a byte-string `sig`
/// and an optional `x5c`, a non-empty array of DER certificates, leaf first.
struct PackedStatement: Sendable {
    let algorithm: COSEAlgorithm
    let signature: [UInt8]
    /// The attestation certificate's DER bytes, or `nil` for self attestation.
    let leafCertificate: [UInt8]?

    /// What the statement proves: `.self` without a certificate, `.basic` with one.
    var attestationType: AttestationType { leafCertificate == nil ? .self : .basic }

    init(_ statement: CBORValue) throws(PasskeyError) {
        guard case .map(let entries) = statement,
            entries.allSatisfy({ [.text("alg"), .text("sig"), .text("x5c")].contains($0.key) }),
            let number = statement[textKey: "alg"]?.intValue,
            case .bytes(let signature) = statement[textKey: "sig"]
        else {
            throw Self.bad("the statement is not a map of an integer alg, a byte-string sig and an optional x5c")
        }
        guard let algorithm = COSEAlgorithm(rawValue: number) else {
            throw PasskeyError(.unsupportedAlgorithm, "the attestation's algorithm \(number) is not ES256, RS256 or EdDSA")
        }
        self.algorithm = algorithm
        self.signature = signature
        guard let chain = statement[textKey: "x5c"] else {
            leafCertificate = nil
            return
        }
        guard case .array(let certificates) = chain, case .bytes(let leaf)? = certificates.first,
            certificates.allSatisfy({ if case .bytes = $0 { true } else { false } })
        else {
            throw Self.bad("x5c is not a non-empty array of certificates")
        }
        leafCertificate = leaf
    }

    /// The statement of a registration whose format is `packed`; `nil` for another format.
    static func of(_ evidence: RegistrationEvidence) throws(PasskeyError) -> PackedStatement? {
        evidence.attestation.format == "packed" ? try PackedStatement(evidence.attestation.statement) : nil
    }

    /// A `badAttestation` refusal naming the packed format.
    static func bad(_ reason: String) -> PasskeyError { PasskeyError(.badAttestation, "packed: \(reason)") }
}
