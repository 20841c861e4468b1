import AppleSignIn
import Crypto
import Foundation
import JuiceStackSupport
import JuiceTestSupport

@testable import AppleIDEmulator

/// A developer team with a freshly generated P-256 key (the .p8 a developer downloads).
struct TestTeam: Sendable {
    let teamID: String
    let keyID: String
    let privateKey: P256.Signing.PrivateKey

    init(teamID: String, keyID: String) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKey = P256.Signing.PrivateKey()
    }

    var configuration: EmulatorConfiguration.Team {
        .init(teamID: teamID, keys: [.init(keyID: keyID, publicKeyPEM: privateKey.publicKey.pemRepresentation)])
    }

    /// A relying-party signer (AppleSignIn) for this team.
    func signer(clock: TestClock, lifetime: TimeInterval = 3600, audience: String = "https://appleid.apple.com") throws -> ClientSecretSigner {
        try ClientSecretSigner(teamID: teamID, keyID: keyID, privateKey: privateKey, lifetime: lifetime, audience: audience, time: clock.timeSource)
    }
}
