/// The mail domains of Apple's private email relay (Hide My Email), the one place the toolkit names them.
///
/// Since 2026-06-15 Apple issues new relay addresses on `private.icloud.com`; addresses issued earlier on
/// `privaterelay.appleid.com` and Hide My Email addresses on `icloud.com` keep working, so a backend must
/// accept all three.
///
/// `icloud.com` also hosts people's real iCloud addresses, so a domain alone cannot tell a relay address
/// there: trust the identity token's `is_private_email` claim first (``IdentityToken/isRelayEmail`` does)
/// and use ``isRelayAddress(_:)`` only when the claim is absent.
///
/// ```swift
/// AppleRelayDomains.isRelayAddress("abc123@private.icloud.com")        // true
/// AppleRelayDomains.isRelayAddress("abc123@privaterelay.appleid.com")  // true
/// AppleRelayDomains.isRelayAddress("someone@icloud.com")               // false: ambiguous by domain
/// ```
public enum AppleRelayDomains {
    /// The domain of relay addresses Apple issues now.
    public static let current = "private.icloud.com"
    /// The domain of relay addresses issued before 2026-06-15 (they keep working).
    public static let legacy = "privaterelay.appleid.com"
    /// iCloud's own domain, where older Hide My Email addresses live next to real iCloud addresses.
    public static let iCloud = "icloud.com"
    /// Every domain a relay address can be on, newest first.
    public static let all = [current, legacy, iCloud]
    /// The domains that hold relay addresses only: an address there is a relay address by its domain alone.
    public static let dedicated = [current, legacy]

    /// Whether `address` is on a domain that holds only relay addresses (`private.icloud.com`,
    /// `privaterelay.appleid.com`; case-insensitive). `icloud.com` addresses answer `false`: only the
    /// `is_private_email` claim tells those apart.
    public static func isRelayAddress(_ address: String) -> Bool {
        guard let domain = domain(of: address) else { return false }
        return dedicated.contains(domain)
    }

    /// Whether `address` is on any of the relay domains, `icloud.com` included (a relay address there
    /// is possible, not certain).
    public static func isOnRelayDomain(_ address: String) -> Bool {
        guard let domain = domain(of: address) else { return false }
        return all.contains(domain)
    }

    /// The lowercased domain after the last `@`, when there is a non-empty local part and domain.
    private static func domain(of address: String) -> String? {
        guard let at = address.lastIndex(of: "@"), at != address.startIndex else { return nil }
        let domain = address[address.index(after: at)...].lowercased()
        return domain.isEmpty ? nil : domain
    }
}
