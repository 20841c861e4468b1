import JuiceInfrastructure
import Testing

@Suite("PageLanguage: the best supported language for Accept-Language, English by default")
struct PageLanguageTests {
    @Test(
        "picks by quality, then by order; traditional Chinese and unknown ranges are not Simplified Chinese",
        arguments: [
            (nil, PageLanguage.english), ("", .english), ("zh-CN", .simplifiedChinese), ("zh", .simplifiedChinese),
            ("zh-Hans-CN,en;q=0.5", .simplifiedChinese), ("en;q=0.4, zh;q=0.8", .simplifiedChinese),
            ("zh;q=0.4, en-GB;q=0.8", .english), ("zh-TW", .english), ("zh-Hant", .english), ("zh-HK, fr", .english),
            ("fr, de", .english), ("zh;q=0", .english), ("zh;q=abc", .english), ("en, zh", .english),
        ])
    func preferred(header: String?, language: PageLanguage) {
        #expect(PageLanguage.preferred(acceptLanguage: header) == language)
    }

    @Test("a header over 1 KB is not parsed")
    func oversized() {
        #expect(PageLanguage.preferred(acceptLanguage: "zh," + String(repeating: "x", count: 1100)) == .english)
    }

    @Test("a tag names its language in any case; tags round-trip")
    func tags() {
        #expect(PageLanguage(tag: "ZH-hans") == .simplifiedChinese)
        #expect(PageLanguage(tag: "en-US") == .english)
        #expect(PageLanguage(tag: "fr") == nil)
        for language in PageLanguage.allCases {
            #expect(PageLanguage(tag: language.tag) == language)
        }
    }
}
