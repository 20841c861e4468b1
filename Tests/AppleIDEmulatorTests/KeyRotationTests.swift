import AppleSignIn
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import AppleIDEmulator

@Suite("Signing key rotation")
struct KeyRotationTests {
    static func keyIDs(_ emulator: RunningEmulator) async throws -> [String] {
        (try await emulator.http.get("/auth/keys").json?["keys"] as? [[String: Any]] ?? []).compactMap { $0["kid"] as? String }
    }

    @Test("Tokens in flight survive a rotation; the new key signs; the old key leaves after the grace period")
    func rotation() async throws {
        let clock = TestClock()
        try await RunningEmulator.with(clock: clock, options: EmulatorOptions(keyGracePeriod: 600, outboxPollInterval: .milliseconds(20))) {
            emulator in
            let before = try await Self.keyIDs(emulator)
            #expect(before.count == 2)
            let keys = emulator.keySet()
            let verifier = emulator.verifier(keys: keys)
            let inFlight = WebFlow.hiddenInputs(try await WebFlow.signIn(emulator).body)["id_token"]!
            let oldKeyID = try #require(WebFlow.header(inFlight)["kid"] as? String)
            _ = try await verifier.verify(inFlight)

            let rotated = try await emulator.admin.postJSON("/emulator/admin/rotate-keys", [:])
            let newKeyID = try #require(rotated.json?["signing_key_id"] as? String)
            #expect(newKeyID != oldKeyID)
            #expect(before.contains(newKeyID))  // the standby key was published before it signed anything
            let during = try await Self.keyIDs(emulator)
            #expect(during.count == 3)
            #expect(during.contains(oldKeyID))

            let fresh = WebFlow.hiddenInputs(try await WebFlow.signIn(emulator).body)["id_token"]!
            #expect(WebFlow.header(fresh)["kid"] as? String == newKeyID)
            _ = try await verifier.verify(fresh)  // unknown kid → the key set refetches
            _ = try await verifier.verify(inFlight)
            _ = try await emulator.verifier().verify(inFlight)

            clock.advance(by: 601)
            let after = try await Self.keyIDs(emulator)
            #expect(!after.contains(oldKeyID))
            #expect(after.count == 2)
            do {
                _ = try await emulator.verifier().verify(inFlight)
                Issue.record("a token signed by a retired key still verified")
            } catch {
                #expect((error as? TokenVerificationError)?.code == .unknownKey)
            }
        }
    }
}
