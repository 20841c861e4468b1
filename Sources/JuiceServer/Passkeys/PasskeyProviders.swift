import JuiceEncodings

/// The names of passkey providers by AAGUID (the authenticator model a passkey's registration names):
/// "iCloud Keychain", "Google Password Manager", "1Password", a security key's model. The account page,
/// the API (`provider`) and `juice passkey list` show it next to the name the person chose.
///
/// The list is `Resources/passkey-providers.tsv`, compiled in: the community-maintained AAGUID list
/// at a pinned version (`Resources/passkey-providers.NOTICE.md` says where from and under which
/// licence; `scripts/make-passkey-providers` refreshes it). An AAGUID it does not name, the zero AAGUID
/// (authenticators that keep their model to themselves) and a passkey stored before AAGUIDs were kept
/// are all ``unnamed``.
struct PasskeyProviders: Sendable {
    /// What an unknown provider is called.
    static let unnamed = "Passkey"

    /// The bundled list.
    static let bundled = PasskeyProviders(tsv: PackageResources.passkey_providers_tsv)

    /// Names by AAGUID in its text form (``text(_:)``).
    private let names: [String: String]

    /// How many providers the list names.
    var count: Int { names.count }

    /// Reads `aaguid<TAB>name` lines; a line that is not one (a bad AAGUID, an empty, over-long or
    /// unprintable name) is skipped.
    init(tsv: [UInt8]) {
        var names: [String: String] = [:]
        for line in String(decoding: tsv, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            guard fields.count == 2, Self.isText(fields[0]) else { continue }
            let name = String(fields[1])
            guard !name.isEmpty, name.count <= 100, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else { continue }
            names[String(fields[0])] = name
        }
        self.names = names
    }

    /// The provider's name for `aaguid` (16 bytes), or ``unnamed``.
    func name(aaguid: [UInt8]?) -> String {
        guard let aaguid, let text = Self.text(aaguid) else { return Self.unnamed }
        return names[text] ?? Self.unnamed
    }

    /// `aaguid` as text, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lower case; `nil` unless it is 16 bytes.
    static func text(_ aaguid: [UInt8]) -> String? {
        guard aaguid.count == 16 else { return nil }
        let hex = aaguid.hexString
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }
        return parts.joined(separator: "-")
    }

    /// The bytes of an AAGUID in its text form; `nil` for anything else.
    static func bytes(_ text: String) -> [UInt8]? {
        guard isText(Substring(text)) else { return nil }
        let digits = Array(text.utf8.filter { $0 != UInt8(ascii: "-") })
        return stride(from: 0, to: 32, by: 2).compactMap { index -> UInt8? in
            guard let high = digits[index].hexDigitValue, let low = digits[index + 1].hexDigitValue else { return nil }
            return high << 4 | low
        }
    }

    /// Whether `text` is an AAGUID's text form: 8-4-4-4-12 lowercase hex digits.
    private static func isText(_ text: Substring) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return false }
        for (index, byte) in utf8.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) else {
                    return false
                }
            }
        }
        return true
    }
}
