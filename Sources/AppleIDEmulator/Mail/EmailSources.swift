#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A team's registered email sources (`apps[].email_sources`): domains and individual addresses.
///
/// This stands in for Apple's SPF/DKIM alignment without DNS: a domain entry covers addresses at
/// that exact domain (not its subdomains); an address entry covers that address only.
struct EmailSources: Sendable, Hashable {
    let teamID: String
    private let domains: Set<String>
    private let addresses: Set<String>

    init(teamID: String, entries: [String]) {
        self.teamID = teamID
        var domains: Set<String> = []
        var addresses: Set<String> = []
        for entry in entries.map({ $0.lowercased() }) {
            if entry.contains("@") { addresses.insert(entry) } else { domains.insert(entry) }
        }
        self.domains = domains
        self.addresses = addresses
    }

    /// Whether mail from `address` may reach this team's relay addresses.
    func covers(_ address: String) -> Bool {
        let address = address.lowercased()
        guard let at = address.lastIndex(of: "@") else { return false }
        return addresses.contains(address) || domains.contains(String(address[address.index(after: at)...]))
    }

    /// How the entries read in a refusal (so a developer sees what is registered).
    var registered: String {
        let all = (domains.sorted() + addresses.sorted())
        return all.isEmpty ? "none registered" : "registered: " + all.joined(separator: ", ")
    }
}

/// Mailbox syntax the relay accepts in `MAIL FROM`, `RCPT TO` and the `From` header.
enum MailboxSyntax {
    /// `local@domain` with a non-empty local part and a dotted domain, no spaces or control characters.
    static func isValid(_ address: String) -> Bool {
        guard address.utf8.count <= 254, let at = address.lastIndex(of: "@") else { return false }
        let local = address[..<at]
        let domain = address[address.index(after: at)...]
        guard !local.isEmpty, local.utf8.count <= 64, domain.contains("."), !domain.hasPrefix("."), !domain.hasSuffix(".") else { return false }
        let forbidden: Set<Character> = [" ", "<", ">", "(", ")", ",", ";", "\\", "\""]
        guard !address.contains(where: { forbidden.contains($0) || $0.isNewline || ($0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false) })
        else { return false }
        return domain.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == ".") }
    }
}
