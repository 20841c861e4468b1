/// The origins outside the RP ID's own site that the relying party lists in `/.well-known/webauthn`
/// (WebAuthn Level 3 §5.11, related origin requests): a browser on one of them may run a ceremony for
/// this RP ID after fetching that file, and the relying party then accepts the ceremony's `origin`.
///
/// Browsers read a bounded list: Chromium's `ValidateWellKnownJSON`
/// (content/browser/webauth/webauth_request_security_checker.cc, `kMaxLabels = 5`) counts the distinct
/// labels of the entries' registrable domains (the `example` of `www.example.co.uk`) and ignores every
/// entry past the fifth label; an entry matches only as the exact origin. Without the public suffix list
/// the server cannot tell which origins share a label, so it accepts at most ``maximumCount`` origins,
/// which can never come to more than five labels: nothing it lists is ignored by a browser.
///
/// ```swift
/// let related = try RelatedOrigins(["https://juice.example.org"])
/// related.contains("https://juice.example.org") // true
/// ```
package struct RelatedOrigins: Sendable, Equatable {
    /// The most origins listed (Chromium's five labels; see the type's notes).
    package static let maximumCount = 5

    /// Why a list is refused.
    package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, naming the entry (shortened).
        package let description: String
    }

    /// The origins, as given (lowercased, `https://host[:port]`), in order.
    package let origins: [String]

    /// No related origins.
    package static let none = RelatedOrigins(checked: [])

    /// Checks `entries`: each an `https` origin (`https://host[:port]`: no user, path, query or
    /// fragment; a domain name, not an IP address), no duplicates, at most ``maximumCount``.
    /// - Throws: ``Problem`` naming the first entry refused.
    package init(_ entries: [String]) throws(Problem) {
        guard entries.count <= Self.maximumCount else {
            throw Problem(description: "at most \(Self.maximumCount) related origins (browsers read no more than five labels)")
        }
        var origins: [String] = []
        for entry in entries {
            guard let origin = Self.origin(entry) else {
                throw Problem(description: "\"\(entry.prefix(100))\" is not an https origin (https://host or https://host:port)")
            }
            guard !origins.contains(origin) else { throw Problem(description: "\"\(entry.prefix(100))\" is listed twice") }
            origins.append(origin)
        }
        self.origins = origins
    }

    private init(checked: [String]) { origins = checked }

    /// Whether a ceremony's `origin` is one of these (compared exactly, as browsers do).
    package func contains(_ origin: String) -> Bool { origins.contains(origin) }

    /// `entry` lowercased if it is `https://` and a domain name with an optional port 1–65535, else `nil`.
    static func origin(_ entry: String) -> String? {
        let lowered = entry.lowercased()
        guard lowered.hasPrefix("https://"), lowered.utf8.count <= 260 else { return nil }
        let authority = lowered.dropFirst("https://".count)
        let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let host = parts[0]
        if parts.count == 2 {
            guard let port = Int(parts[1]), (1...65535).contains(port), String(port) == parts[1] else { return nil }
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy(isLabel), !labels.allSatisfy({ $0.allSatisfy(\.isNumber) }) else { return nil }
        return lowered
    }

    /// A DNS label: 1 to 63 letters, digits and inner hyphens.
    private static func isLabel(_ label: Substring) -> Bool {
        guard (1...63).contains(label.count), label.first != "-", label.last != "-" else { return false }
        return label.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}
