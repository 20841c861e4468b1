#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A client id the emulator knows: an app's bundle id (device sign-ins) or one of its Services IDs (web).
struct RegisteredClient: Sendable {
    enum Kind: Sendable {
        /// A bundle id.
        case app
        /// A Services ID.
        case services
    }

    let clientID: String
    let kind: Kind
    let app: EmulatorConfiguration.App
    /// The team that owns the app now (changes with an app transfer).
    let teamID: String
    /// The team that owned the app before its last transfer.
    let previousTeamID: String?
    /// When the app was last transferred.
    let transferredAt: Date?

    var bundleID: String { app.bundleID }

    /// Whether the app was transferred less than 60 days before `now` (when id tokens carry `transfer_sub`).
    func isInTransferWindow(at now: Date) -> Bool {
        guard let transferredAt, previousTeamID != nil else { return false }
        return now.timeIntervalSince(transferredAt) < TransferRules.window
    }
}

/// App transfer rules.
enum TransferRules {
    /// The 60 days during which transfer identifiers work and id tokens carry `transfer_sub`.
    static let window: TimeInterval = 60 * 86_400
}
