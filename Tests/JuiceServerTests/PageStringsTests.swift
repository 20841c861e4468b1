import JuiceTestSupport
import Testing

@testable import JuiceServer

@Suite("Page strings: every English string has its Simplified Chinese one")
struct PageStringsTests {
    @Test("every page string but the app's name is translated")
    func everyStringTranslated() {
        let missing = Set(PageStrings.english.keys).subtracting(PageStrings.chinese.keys).subtracting(["app_name"])
        #expect(missing.isEmpty, "untranslated: \(missing.sorted())")
        #expect(Set(PageStrings.chinese.keys).isSubset(of: PageStrings.english.keys), "a Chinese string without an English one")
    }

    @Test("a string about passkeys says 通行密钥 in Chinese, Apple's word")
    func passkeyWord() {
        let passkeyKeys = PageStrings.english.filter { $0.value.lowercased().contains("passkey") }.keys
        #expect(passkeyKeys.count >= 20)
        for key in passkeyKeys {
            #expect(PageStrings.chinese[key]?.contains("通行密钥") == true, "\(key): \(PageStrings.chinese[key] ?? "missing")")
        }
    }
}
