import Testing

@testable import AppleSignInConformance

@Suite("the kit's browser and form handling")
struct BrowserRulesTests {
    @Test("Apple's cross-site form_post carries only SameSite=None; Secure cookies; a same-site probe carries all")
    func crossSiteCookies() {
        var jar = CookieJar()
        jar.take([
            "lax=1; Path=/; HttpOnly; SameSite=Lax", "plain=2; Path=/", "strict=3; SameSite=Strict",
            "none=4; Path=/; SameSite=None; Secure", "insecure=5; SameSite=None",
        ])
        #expect(jar.header(crossSite: true) == "none=4")
        #expect(jar.header(crossSite: false) == "lax=1; plain=2; strict=3; none=4; insecure=5")
        jar.take(["none=; Max-Age=0; SameSite=None; Secure", "lax=6; Max-Age=0"])
        #expect(jar.header(crossSite: true) == nil)
        #expect(jar.header(crossSite: false) == "plain=2; strict=3; insecure=5")
    }

    @Test("hostile form bodies decode without trapping: bad percent-encoding is dropped, the first of a repeated field wins")
    func hostileForms() {
        #expect(FormBody.decode("a=%ZZ&b=%E2%82&c=ok+value&c=second&=empty&d") == ["c": "ok value", "": "empty", "d": ""])
        #expect(FormBody.decode("") == [:])
        #expect(FormBody.decode("&&&") == [:])
        let encoded = FormBody.encode([("state", "a b&c=d/é"), ("user", #"{"name":1}"#)])
        #expect(FormBody.decode(encoded) == ["state": "a b&c=d/é", "user": #"{"name":1}"#])
    }

    @Test("every case id is unique and each has a fix hint")
    func catalog() {
        let cases = ConformanceCatalog.cases(native: true, notifications: true)
        #expect(Set(cases.map(\.id)).count == cases.count)
        #expect(cases.allSatisfy { !$0.hint.isEmpty && !$0.title.isEmpty })
        #expect(cases.last?.id == "key-rotation")
        #expect(ConformanceCatalog.cases(native: false, notifications: false).count >= 20)
    }
}
