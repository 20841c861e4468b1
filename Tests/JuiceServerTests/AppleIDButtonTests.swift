import JuiceInfrastructure
import JuiceTestSupport
import Testing

@testable import JuiceServer

@Suite("The Sign in with Apple button follows Apple's rules")
struct AppleIDButtonTests {
    @Test("every type and style renders with its localized title, size, margin and radius")
    func renders() throws {
        let english = try AppleIDButton(type: .continue, style: .whiteOutline, width: 200, height: 50, cornerRadius: 12)
        let html = english.html(href: "/auth/apple")
        #expect(html.contains("Continue with Apple"))
        #expect(html.contains("apple-id-button-white-outline"))
        #expect(html.contains("width:200px;height:50px;border-radius:12px;margin:5px"))
        #expect(html.contains("<svg") && html.contains("aria-hidden=\"true\""))
        let chinese = try AppleIDButton(type: .signUp, style: .white, width: 140, height: 30, language: .simplifiedChinese)
        #expect(chinese.title == "通过 Apple 注册")
        #expect(chinese.margin == 3)
        #expect(try AppleIDButton(type: .signIn, language: .simplifiedChinese).title == "通过 Apple 登录")
        #expect(try AppleIDButton(type: .signIn).title == "Sign in with Apple")
        let logo = try AppleIDButton(style: .black, width: 44, height: 44, logoOnly: true)
        let logoHTML = logo.html(href: "/auth/apple")
        #expect(logoHTML.contains("aria-label=\"Sign in with Apple\""))
        #expect(!logoHTML.contains("<span>"))
        #expect(
            try AppleIDButton(height: 64, cornerRadius: 50).html(href: "/").contains("border-radius:32px"), "a radius never exceeds half the height")
    }

    @Test("sizes and radii outside Apple's rules are refused with the rule")
    func validates() {
        #expect(throws: AppleIDButton.ValidationError.self) { try AppleIDButton(height: 29) }
        #expect(throws: AppleIDButton.ValidationError.self) { try AppleIDButton(height: 65) }
        #expect(throws: AppleIDButton.ValidationError.self) { try AppleIDButton(width: 139, height: 30) }
        #expect(throws: AppleIDButton.ValidationError.self) { try AppleIDButton(cornerRadius: 51) }
        #expect(throws: AppleIDButton.ValidationError.self) { try AppleIDButton(cornerRadius: -1) }
        #expect(throws: AppleIDButton.ValidationError.self) { try AppleIDButton(width: 60, height: 44, logoOnly: true) }
        do {
            _ = try AppleIDButton(width: 100, height: 40)
            Issue.record("a 100-point-wide titled button was accepted")
        } catch {
            #expect(error.reason.contains("140"))
        }
    }

    @Test("the page language follows Accept-Language, traditional Chinese and unknown languages fall back to English")
    func languages() {
        #expect(PageLanguage.preferred(acceptLanguage: "zh-CN,zh;q=0.9") == .simplifiedChinese)
        #expect(PageLanguage.preferred(acceptLanguage: "zh-Hans") == .simplifiedChinese)
        #expect(PageLanguage.preferred(acceptLanguage: "fr-FR, en;q=0.5, zh;q=0.8") == .simplifiedChinese)
        #expect(PageLanguage.preferred(acceptLanguage: "zh-TW") == .english)
        #expect(PageLanguage.preferred(acceptLanguage: "de") == .english)
        #expect(PageLanguage.preferred(acceptLanguage: nil) == .english)
    }
}
