import JuiceEncodings
import Testing

@testable import AppleSignIn

@Suite("Form-urlencoded bodies: decoded in order, refused whole when one field is broken")
struct FormURLEncodingTests {
    @Test("a whole body decodes in order; one broken field refuses the body")
    func body() {
        #expect(FormURLEncoding.decode("code=c%2F1&state=s+t")?.map { "\($0.0)=\($0.1)" } == ["code=c/1", "state=s t"])
        #expect(FormURLEncoding.decode("code=ok&state=%E0%A4") == nil)
    }

    @Test("fields that FormURLComponent encoded decode back to the same pairs")
    func roundTrip() {
        let fields = [("client_id", "com.example.app"), ("redirect_uri", "https://example.com/cb?x=1"), ("name", "Zoé Ünal")]
        let body = FormURLComponent.encode(fields: fields)
        #expect(FormURLEncoding.decode(body)?.map { "\($0.0)=\($0.1)" } == fields.map { "\($0.0)=\($0.1)" })
    }
}
