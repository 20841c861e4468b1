/// The mail domains of Apple's private email relay, as the emulator issues and relays them.
///
/// New relay addresses are issued on ``privateICloud`` (`private.icloud.com`, Apple's domain since
/// 2026-06-15) unless ``EmulatorOptions/relayDomain`` says otherwise; the relay delivers mail for every
/// address it issued, whichever domain it is on. (The emulator keeps its own list: it never imports the
/// toolkit, whose `AppleRelayDomains` is the backend's side.)
public enum RelayDomain: String, Sendable, CaseIterable {
    /// `private.icloud.com`: where Apple issues new Hide My Email addresses.
    case privateICloud = "private.icloud.com"
    /// `privaterelay.appleid.com`: the domain of addresses issued before 2026-06-15, for teams that still need it.
    case privateRelay = "privaterelay.appleid.com"
    /// `icloud.com`: older Hide My Email addresses, next to real iCloud addresses.
    case iCloud = "icloud.com"
}
