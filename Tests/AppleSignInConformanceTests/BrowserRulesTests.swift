import Foundation
import Testing

@testable import AppleSignInConformance

@Suite("the kit's browser and form handling")
struct BrowserRulesTests {
    @Test("cookies as a current browser sends them: None+Secure cross-site, Lax also on a cross-site top-level GET, Strict only same-site")
    func crossSiteCookies() {
        var jar = CookieJar(secureContext: true)
        jar.take([
            "lax=1; Path=/; HttpOnly; SameSite=Lax", "plain=2; Path=/", "strict=3; SameSite=Strict; Path=/",
            "none=4; Path=/; SameSite=None; Secure", "insecure=5; SameSite=None; Path=/",
        ])
        #expect(jar.header(.crossSitePost) == "none=4")
        #expect(jar.header(.crossSiteNavigation) == "lax=1; plain=2; none=4")
        #expect(jar.header(.sameSite) == "lax=1; plain=2; strict=3; none=4")
        jar.take(["none=; Max-Age=0; SameSite=None; Secure; Path=/", "lax=6; Max-Age=0; Path=/"])
        #expect(jar.header(.crossSitePost) == nil)
        #expect(jar.header(.sameSite) == "plain=2; strict=3")
        jar.take(["old=7; Path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT", "deep=8; Path=/finish/"])
        #expect(jar.header(path: "/finish/step", .sameSite) == "deep=8; plain=2; strict=3")
        #expect(jar.header(path: "/finishing", .sameSite) == "plain=2; strict=3")
    }

    @Test("hostile Set-Cookie headers are stored or dropped without trapping")
    func hostileCookies() {
        var jar = CookieJar(secureContext: true)
        jar.take([
            "", ";", "=", "=value", "a=1; ; =; ==; Path", "b=2;;;Max-Age=abc; Max-Age=99999999999999999999999; Path=/",
            "c=3; Expires=not a date; Path=/", "d=\"4\"; Path=relative", String(repeating: "x=;", count: 1000),
        ])
        #expect(jar.header(path: "/", .sameSite) == "a=1; b=2; c=3; d=4")
    }

    @Test("Domain as RFC 6265 reads it: a cookie for another domain, a public suffix or another IP address is dropped, and the case says so")
    func domainMatching() throws {
        var jar = CookieJar(backend: URL(string: "https://app.example.com"))
        jar.take([
            "sid=1; Path=/; Domain=other.example", "ip=2; Path=/; Domain=127.0.0.1", "tld=3; Path=/; Domain=com",
            "parent=4; Path=/; Domain=.Example.com", "exact=5; Path=/; Domain=app.example.com", "host=6; Path=/",
        ])
        #expect(jar.header(.sameSite) == "parent=4; exact=5; host=6")
        #expect(jar.header(host: "api.example.com", .sameSite) == "parent=4", "Domain=example.com reaches a sibling; host-only cookies do not")
        #expect(jar.header(host: "example.org", .sameSite) == nil)
        #expect(jar.droppedNotes.count == 3)
        #expect(jar.droppedNotes.first == "sid: Domain=other.example does not domain-match app.example.com, the host that set it")
        let detail = jar.explaining("the callback answered HTTP 303, but /me HTTP 401: not signed in")
        #expect(detail.hasSuffix("a browser would have dropped: " + jar.droppedNotes.joined(separator: "; ")))

        var loopback = CookieJar(backend: URL(string: "http://127.0.0.1:9000"))
        loopback.take(["a=1; Path=/; Domain=127.0.0.1", "b=2; Path=/; Domain=0.0.1", "c=3; Path=/; Domain=localhost"])
        #expect(loopback.header(.sameSite) == "a=1", "an IP address matches only itself")
        #expect(loopback.header(host: "localhost", .sameSite) == nil)
        #expect(CookieJar().explaining("x") == "x")
    }

    @Test("__Secure- and __Host- cookies are kept only when they keep their prefix's promises")
    func cookiePrefixes() throws {
        var jar = CookieJar(backend: URL(string: "https://app.example.com"))
        jar.take([
            "__Secure-a=1; Path=/", "__Secure-b=2; Path=/; Secure", "__Host-c=3; Path=/; Secure", "__Host-d=4; Secure",
            "__Host-e=5; Path=/; Secure; Domain=app.example.com", "__Host-f=6; Path=/",
        ])
        #expect(jar.header(.sameSite) == "__Secure-b=2; __Host-c=3")
        #expect(jar.droppedNotes.count == 4)
    }

    @Test("Secure cookies live only in a secure context: https or loopback http")
    func secureContext() throws {
        #expect(CookieJar.isSecureContext(try #require(URL(string: "http://127.0.0.1:9000"))))
        #expect(CookieJar.isSecureContext(try #require(URL(string: "http://localhost:9000"))))
        #expect(CookieJar.isSecureContext(try #require(URL(string: "https://example.com"))))
        #expect(!CookieJar.isSecureContext(try #require(URL(string: "http://example.com"))))
        var jar = CookieJar(secureContext: false)
        jar.take(["sid=1; Secure; SameSite=None; Path=/", "plain=2; Path=/"])
        #expect(jar.header(.sameSite) == "plain=2")
    }

    @Test("a start page's first POST form: its action, hidden fields (entities decoded) and first named submit button")
    func startForm() {
        let html = """
            <form action="/search" method="get"><input type="hidden" name="q" value="x"></form>
            <FORM
              method="POST" action='/login/apple-id/?next=%2F&amp;x=1'>
              <input type="text" name="ignored" value="typed">
              <input type=hidden name=csrfmiddlewaretoken value="a&amp;b&quot;c">
              <button type="submit" name="provider" value="apple">Apple</button>
              <button type="submit" name="other" value="no">Other</button>
            </FORM>
            """
        let form = StartForm.parse(html)
        #expect(form?.action == "/login/apple-id/?next=%2F&x=1")
        #expect(form?.fields.map { "\($0.0)=\($0.1)" } == ["csrfmiddlewaretoken=a&b\"c", "provider=apple"])
        #expect(StartForm.parse("<p>no form</p>") == nil)
        #expect(StartForm.parse("<form method=post><input type=hidden name=a value=1>")?.fields.first?.1 == "1")
    }

    @Test("hostile form bodies decode without trapping: bad percent-encoding is dropped, the first of a repeated field wins")
    func hostileForms() {
        #expect(FormBody.decode("a=%ZZ&b=%E2%82&c=ok+value&c=second&=empty&d") == ["c": "ok value", "": "empty", "d": ""])
        #expect(FormBody.decode("") == [:])
        #expect(FormBody.decode("&&&") == [:])
        let encoded = FormBody.encode([("state", "a b&c=d/é"), ("user", #"{"name":1}"#)])
        #expect(FormBody.decode(encoded) == ["state": "a b&c=d/é", "user": #"{"name":1}"#])
    }

    @Test("every case id is unique and each has a fix and a reference")
    func catalog() {
        let cases = ConformanceCatalog.all
        #expect(Set(cases.map(\.id)).count == cases.count)
        #expect(cases.allSatisfy { !$0.hint.isEmpty && !$0.title.isEmpty && !$0.reference.isEmpty })
        // Key rotation last (web, then native): a backend that never refreshes its keys fails those cases only.
        #expect(cases.suffix(2).map(\.id) == ["key-rotation", "native-key-rotation"])
        #expect(cases.count >= 40)
    }
}
