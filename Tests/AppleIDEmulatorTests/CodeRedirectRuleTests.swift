import Testing

@testable import AppleIDEmulator

@Suite("CodeRedirectRule: which redirect_uri may redeem a code")
struct CodeRedirectRuleTests {
    static let web = "https://app.example.com/auth/apple/callback"

    @Test("a web code needs its own redirect URI: another, none or an empty one is refused")
    func webCode() {
        #expect(CodeRedirectRule.problem(issuedWith: Self.web, presented: Self.web) == nil)
        #expect(CodeRedirectRule.problem(issuedWith: Self.web, presented: Self.web + "/") != nil)
        #expect(CodeRedirectRule.problem(issuedWith: Self.web, presented: "https://APP.example.com/auth/apple/callback") != nil)
        #expect(CodeRedirectRule.problem(issuedWith: Self.web, presented: nil) != nil)
        #expect(CodeRedirectRule.problem(issuedWith: Self.web, presented: "") != nil)
    }

    @Test("a device code redeems with no redirect URI or with any, as at Apple")
    func deviceCode() {
        #expect(CodeRedirectRule.problem(issuedWith: nil, presented: nil) == nil)
        #expect(CodeRedirectRule.problem(issuedWith: nil, presented: "") == nil)
        #expect(CodeRedirectRule.problem(issuedWith: nil, presented: "https://backend.example.net/accounts/apple/login/callback/") == nil)
    }
}
