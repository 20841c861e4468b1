import AppleSignIn
import Crypto
import Foundation
import JuiceEncodings
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import JuiceServer

@Suite("Native nonces: only this server's, unaltered and unexpired, are accepted; none is stored when issued")
struct NativeNoncesTests {
    static let secret = SymmetricKey(data: [UInt8](repeating: 7, count: 32))

    static func nonces(_ clock: TestClock, secret: SymmetricKey = secret, lifetime: TimeInterval = 600) -> NativeNonces {
        NativeNonces(secret: secret, lifetime: lifetime, random: .seeded(1), time: clock.timeSource)
    }

    @Test("an issued nonce is accepted until its lifetime ends, then refused")
    func lifetime() {
        let clock = TestClock(Date(timeIntervalSince1970: 1_900_000_000))
        let nonces = Self.nonces(clock)
        let nonce = nonces.issue()
        #expect(nonce.count == 75)
        #expect(nonces.issue() != nonce, "each nonce has its own random part")
        #expect(nonces.isValid(rawNonce: nonce))
        #expect(Self.nonces(clock).isValid(rawNonce: nonce), "another instance sharing the secret accepts it")
        clock.advance(by: 599)
        #expect(nonces.isValid(rawNonce: nonce))
        clock.advance(by: 1)
        #expect(!nonces.isValid(rawNonce: nonce), "refused once its lifetime is over")
    }

    @Test("refused: another server's nonce, a changed random part, a moved expiry, a nonce outliving this server's lifetime")
    func forged() throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_900_000_000))
        let nonces = Self.nonces(clock)
        let foreign = Self.nonces(clock, secret: SymmetricKey(data: [UInt8](repeating: 8, count: 32))).issue()
        #expect(!nonces.isValid(rawNonce: foreign), "a nonce tagged with another secret")

        let bytes = try #require(Base64URL.decode(nonces.issue()))
        var changedRandom = bytes
        changedRandom[0] ^= 1
        #expect(!nonces.isValid(rawNonce: Base64URL.encode(changedRandom)))
        var movedExpiry = bytes
        movedExpiry[16 + 6] &+= 1  // about a minute later, same tag
        #expect(!nonces.isValid(rawNonce: Base64URL.encode(movedExpiry)))
        var changedTag = bytes
        changedTag[bytes.count - 1] ^= 0x80
        #expect(!nonces.isValid(rawNonce: Base64URL.encode(changedTag)))

        let longLived = Self.nonces(clock, lifetime: 86_400).issue()
        #expect(!nonces.isValid(rawNonce: longLived), "a genuine tag with an expiry past what this server issues")
    }

    @Test(
        "hostile input is refused without trapping",
        arguments: [
            "", "a", "not-a-server-nonce", String(repeating: "A", count: 75),
            String(repeating: "A", count: 76), String(repeating: "é", count: 40), String(repeating: "A", count: 1_000), "====", "AAAA+/AA",
        ])
    func hostile(_ text: String) {
        let nonces = Self.nonces(TestClock())
        #expect(!nonces.isValid(rawNonce: text))
    }

    @Test("the spent key is the nonce's SHA-256, marked so that it never equals a code's key")
    func spentValueID() {
        let hash = sha256Hex(Self.nonces(TestClock()).issue())
        #expect(NativeNonces.spentValueID(nonceHash: hash) == "nonce:" + hash)
        #expect(NativeNonces.spentValueID(nonceHash: hash) != hash)
    }
}
