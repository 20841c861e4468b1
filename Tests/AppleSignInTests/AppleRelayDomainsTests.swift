import Foundation
import JuiceEncodings
import Testing

@testable import AppleSignIn

@Suite("Apple's relay domains: private.icloud.com, privaterelay.appleid.com and icloud.com")
struct AppleRelayDomainsTests {
    let time = ManualTime()

    @Test(
        "addresses on the two dedicated relay domains are relay addresses, whatever their case",
        arguments: ["abc123@private.icloud.com", "abc123@privaterelay.appleid.com", "ABC@Private.iCloud.COM"])
    func dedicated(address: String) {
        #expect(AppleRelayDomains.isRelayAddress(address))
        #expect(AppleRelayDomains.isOnRelayDomain(address))
    }

    @Test(
        "icloud.com, look-alike and malformed addresses are not relay addresses by their domain",
        arguments: [
            "someone@icloud.com", "x@evil-private.icloud.com.example", "x@mail.private.icloud.com", "private.icloud.com",
            "@private.icloud.com", "x@", "",
        ])
    func notByDomain(address: String) {
        #expect(!AppleRelayDomains.isRelayAddress(address))
    }

    @Test("icloud.com is a relay domain (possible, not certain), and the list names all three, newest first")
    func list() {
        #expect(AppleRelayDomains.isOnRelayDomain("hme_abc@icloud.com"))
        #expect(!AppleRelayDomains.isOnRelayDomain("someone@gmail.com"))
        #expect(AppleRelayDomains.all == ["private.icloud.com", "privaterelay.appleid.com", "icloud.com"])
    }

    @Test("a token without is_private_email is a relay address when on private.icloud.com; the claim decides when present")
    func tokenRelayEmail() async throws {
        let verifier = IdentityTokenVerifier(keys: try TestKeys.staticKeySet(time: time.source), audiences: [TokenForge.audience], time: time.source)
        func verify(email: String, isPrivate: JSONValue?) async throws -> IdentityToken {
            var claims = TokenForge.appleClaims()
            claims["email"] = .string(email)
            claims["is_private_email"] = isPrivate
            return try await verifier.verify(TokenForge.rs256(claims), nonceClaim: TokenForge.nonce)
        }
        #expect(try await verify(email: "k3m9q4pd7x@private.icloud.com", isPrivate: nil).isRelayEmail)
        #expect(try await verify(email: "hme_x7k2@icloud.com", isPrivate: .string("true")).isRelayEmail)
        #expect(try await !verify(email: "someone@icloud.com", isPrivate: nil).isRelayEmail)
        #expect(try await !verify(email: "alice@example.org", isPrivate: .string("false")).isRelayEmail)
    }
}
