import HTTPTypes
import JuiceEncodings
import JuiceTestSupport
import Testing

@testable import AppleSignIn
@testable import JuiceServer
@testable import WebAuthn

/// Errors of other modules are answered with their own closed codes, carried as they are: each keeps its name on the wire.
@Suite("the server's error codes: closed, and every foreign code carried as it is")
struct ServerErrorCodeTests {
    @Test("every passkey refusal is answered with its own code")
    func passkeyCodes() {
        for code in PasskeyError.Code.all {
            #expect(PasskeyError(code, "x").serverError.code.rawValue == code.description)
        }
    }

    @Test("every identity-token refusal of a notification is answered with its own code; keys unavailable is 503")
    func notificationCodes() {
        for code in TokenVerificationError.Code.all {
            let answer = ServerError(refusedNotification: TokenVerificationError(code, "x"))
            if code == .keysUnavailable {
                #expect(answer.code == .appleUnavailable && answer.status == .serviceUnavailable)
            } else {
                #expect(answer.code.rawValue == code.description && answer.status == .badRequest)
            }
        }
    }
}
