import Crypto
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import JuiceServer

@Suite("Minted values bound to context: accepted only with the context they were minted for")
struct MintedValuesBindingTests {
    static let secret = SymmetricKey(data: [UInt8](repeating: 7, count: 32))
    static let now = Date(timeIntervalSince1970: 1_900_000_000)

    static func values(_ clock: TestClock, purpose: String = "juice test v1") -> MintedValues {
        MintedValues(secret: secret, purpose: purpose, lifetime: 300, random: .seeded(1), time: clock.timeSource)
    }

    @Test("a bound value is accepted with its context, by any instance sharing the secret, until it expires")
    func accepted() {
        let clock = TestClock(Self.now)
        let values = Self.values(clock)
        let context = Array("alice".utf8)
        let value = values.mint(boundTo: context)
        #expect(value.count == MintedValues.byteCount, "the context is covered by the tag, not carried")
        #expect(values.check(value, boundTo: context) == .valid)
        #expect(Self.values(clock).check(value, boundTo: context) == .valid)
        clock.advance(by: 300)
        #expect(values.check(value, boundTo: context) == .expired)
    }

    @Test("refused as forged: another context, no context, a bound check of an unbound value, another purpose")
    func otherContext() {
        let clock = TestClock(Self.now)
        let values = Self.values(clock)
        let value = values.mint(boundTo: Array("alice".utf8))
        #expect(values.check(value, boundTo: Array("mallory".utf8)) == .forged)
        #expect(values.check(value, boundTo: Array("alic".utf8)) == .forged)
        #expect(values.check(value, boundTo: Array("alicee".utf8)) == .forged)
        #expect(values.check(value) == .forged, "a bound value is not an unbound one")
        let unbound = values.mint()
        #expect(values.check(unbound) == .valid, "the empty context is the unbound value, as before binding existed")
        #expect(values.check(unbound, boundTo: Array("alice".utf8)) == .forged)
        #expect(Self.values(clock, purpose: "juice other v1").check(value, boundTo: Array("alice".utf8)) == .forged)
    }

    @Test("hostile lengths are refused without trapping", arguments: [0, 1, 55, 57, 1_000])
    func hostile(_ count: Int) {
        let clock = TestClock(Self.now)
        #expect(Self.values(clock).check([UInt8](repeating: 0xFF, count: count), boundTo: [1, 2, 3]) == .forged)
    }
}
