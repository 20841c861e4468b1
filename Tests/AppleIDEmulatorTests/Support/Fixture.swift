import Foundation

@testable import AppleIDEmulator

/// The standard test world: two teams, one app with a Services ID, two Apple IDs.
enum Fixture {
    static let teamA = TestTeam(teamID: "TEAMAAAAAA", keyID: "KEYAAAAAAA")
    static let teamB = TestTeam(teamID: "TEAMBBBBBB", keyID: "KEYBBBBBBB")
    static let bundleID = "com.example.app"
    static let servicesID = "com.example.app.web"
    static let otherBundleID = "com.example.other"
    static let redirectURI = "https://app.example.com/auth/apple/callback"
    static let alice = EmulatorConfiguration.AppleID(
        email: "alice@example.org", password: "alice-password", firstName: "Alice", lastName: "Appleseed")
    static let bob = EmulatorConfiguration.AppleID(email: "bob@example.org", password: "bob-password", firstName: "Bob", lastName: "Brown")
    static let adminToken = "test-admin-token-0123456789"

    static func configuration(notificationURL: String? = nil) -> EmulatorConfiguration {
        EmulatorConfiguration(
            adminToken: adminToken,
            teams: [teamA.configuration, teamB.configuration],
            apps: [
                .init(
                    teamID: teamA.teamID, bundleID: bundleID, servicesIDs: [servicesID], redirectURIs: [redirectURI],
                    notificationURL: notificationURL, emailSources: ["example.com"], allowLocalRedirects: true
                ),
                .init(teamID: teamB.teamID, bundleID: otherBundleID),
            ],
            appleIDs: [alice, bob]
        )
    }
}
