import Crypto
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import JuiceServer

@Suite("Passkey sign-up challenges: minted, bound to the promised user handle and username, refused for any other")
struct PasskeySignUpChallengesTests {
    static let now = Date(timeIntervalSince1970: 1_900_000_000)
    static let handle = [UInt8](repeating: 0xAB, count: 32)

    static func challenges(_ clock: TestClock, secret: UInt8 = 7) -> PasskeySignUpChallenges {
        PasskeySignUpChallenges(
            values: MintedValues(
                secret: SymmetricKey(data: [UInt8](repeating: secret, count: 32)), purpose: "juice passkey sign-up challenge v1",
                lifetime: 600, random: .seeded(1), time: clock.timeSource))
    }

    @Test("accepted with its handle and username until its time is over")
    func accepted() throws {
        let clock = TestClock(Self.now)
        let challenges = Self.challenges(clock)
        let challenge = try #require(challenges.mint(userHandle: Self.handle, username: "alice"))
        #expect(challenges.check(challenge, userHandle: Self.handle, username: "alice") == .valid)
        let generated = try #require(challenges.mint(userHandle: Self.handle, username: nil))
        #expect(challenges.check(generated, userHandle: Self.handle, username: nil) == .valid)
        clock.advance(by: 600)
        #expect(challenges.check(challenge, userHandle: Self.handle, username: "alice") == .expired)
    }

    @Test("refused as forged: another username, none, another handle, another server's secret")
    func forged() throws {
        let clock = TestClock(Self.now)
        let challenges = Self.challenges(clock)
        let challenge = try #require(challenges.mint(userHandle: Self.handle, username: "alice"))
        #expect(challenges.check(challenge, userHandle: Self.handle, username: "mallory") == .forged)
        #expect(challenges.check(challenge, userHandle: Self.handle, username: nil) == .forged)
        #expect(challenges.check(challenge, userHandle: Self.handle, username: "") == .forged)
        var otherHandle = Self.handle
        otherHandle[0] ^= 1
        #expect(challenges.check(challenge, userHandle: otherHandle, username: "alice") == .forged)
        #expect(challenges.check(challenge, userHandle: Array(Self.handle.dropLast()), username: "alice") == .forged)
        let none = try #require(challenges.mint(userHandle: Self.handle, username: nil))
        #expect(challenges.check(none, userHandle: Self.handle, username: "") == .forged, "no username is not the empty one")
        #expect(Self.challenges(clock, secret: 8).check(challenge, userHandle: Self.handle, username: "alice") == .forged)
    }

    @Test("a handle out of WebAuthn's 1 to 64 bytes is neither minted nor accepted", arguments: [0, 65, 1_000])
    func handleBounds(_ count: Int) {
        let clock = TestClock(Self.now)
        let challenges = Self.challenges(clock)
        let handle = [UInt8](repeating: 1, count: count)
        #expect(challenges.mint(userHandle: handle, username: "alice") == nil)
        #expect(challenges.check([UInt8](repeating: 0, count: MintedValues.byteCount), userHandle: handle, username: "alice") == .forged)
    }

    @Test("its spent key never equals a sign-in challenge's")
    func spentValueID() {
        let challenge = [UInt8](repeating: 3, count: MintedValues.byteCount)
        #expect(PasskeySignUpChallenges.spentValueID(challenge: challenge) != PasskeyCeremonies.spentValueID(challenge: challenge))
        #expect(PasskeySignUpChallenges.spentValueID(challenge: challenge).hasPrefix("passkey-signup:"))
    }
}
