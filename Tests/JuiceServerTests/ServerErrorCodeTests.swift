import HTTPTypes
import JuiceTestSupport
import Testing

@testable import AppleSignIn
@testable import JuiceServer
@testable import WebAuthn

/// Errors of other modules become the server's closed codes through tables written out: none may miss a code,
/// and each keeps its name on the wire.
@Suite("the server's error codes: closed, and every foreign code mapped by name")
struct ServerErrorCodeTests {
    @Test("every passkey refusal has a server code of the same string")
    func passkeyCodes() {
        for code in PasskeyError.Code.all {
            #expect(PasskeyError.serverCodes[code]?.rawValue == code.description, "\(code)")
            #expect(PasskeyError(code, "x").serverError.code.rawValue == code.description)
        }
    }

    @Test("every identity-token refusal of a notification has a server code of the same string; keys unavailable is 503")
    func notificationCodes() {
        for code in TokenVerificationError.Code.all {
            #expect(ServerError.notificationCodes[code]?.rawValue == code.description, "\(code)")
            let answer = ServerError(refusedNotification: TokenVerificationError(code, "x"))
            if code == .keysUnavailable {
                #expect(answer.code == .appleUnavailable && answer.status == .serviceUnavailable)
            } else {
                #expect(answer.code.rawValue == code.description && answer.status == .badRequest)
            }
        }
    }
}
