import Foundation
import JuiceClient
import Testing

@Suite("AuthenticationServices shapes")
struct TypeTests {
    @Test("credential states have ASAuthorizationAppleIDProvider.CredentialState's raw values and the server's names")
    func credentialStates() {
        #expect(CredentialState.revoked.rawValue == 0)
        #expect(CredentialState.authorized.rawValue == 1)
        #expect(CredentialState.notFound.rawValue == 2)
        #expect(CredentialState.transferred.rawValue == 3)
        #expect(CredentialState.allCases.map(\.name) == ["revoked", "authorized", "notFound", "transferred"])
        #expect(CredentialState.allCases.allSatisfy { CredentialState(name: $0.name) == $0 })
        #expect(CredentialState(name: "Authorized") == nil)
    }

    @Test("authorization error codes are ASAuthorizationError's 1000–1006, in its domain")
    func errorCodes() {
        let codes: [AuthorizationError.Code: Int] = [
            .unknown: 1000, .canceled: 1001, .invalidResponse: 1002, .notHandled: 1003, .failed: 1004, .notInteractive: 1005,
            .matchedExcludedCredential: 1006,
        ]
        #expect(codes.count == AuthorizationError.Code.allCases.count)
        for (code, raw) in codes { #expect(code.rawValue == raw) }
        let error = AuthorizationError.canceled("the person cancelled")
        #expect(error.errorCode == 1001)
        #expect(AuthorizationError.errorDomain == "com.apple.AuthenticationServices.AuthorizationError")
        #expect(error == AuthorizationError(.canceled, "another reason"))
        #expect("\(error)" == "canceled (1001): the person cancelled")
    }

    @Test("user detection status, scopes and operations have AuthenticationServices' raw values")
    func rawValues() {
        #expect(UserDetectionStatus.unsupported.rawValue == 0)
        #expect(UserDetectionStatus.unknown.rawValue == 1)
        #expect(UserDetectionStatus.likelyReal.rawValue == 2)
        #expect(AuthorizationScope.fullName.rawValue == "full_name")
        #expect(AuthorizationScope.email.rawValue == "email")
        #expect(OpenIDOperation.operationImplicit.rawValue == "implicit")
        #expect(OpenIDOperation.operationLogin.rawValue == "login")
    }

    @Test("the nonce sent to Apple is the SHA-256 hex of the raw nonce")
    func nonceHash() {
        #expect(Nonce.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Nonce.sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("an Apple ID credential never shows its token or code")
    func credentialRedaction() {
        let credential = AppleIDCredential(
            user: "001.abc.0650", state: "s", authorizedScopes: [.email], authorizationCode: Data("code-SECRET".utf8),
            identityToken: Data("token-SECRET".utf8), email: "a@example.com", fullName: nil, realUserStatus: .likelyReal)
        var dumped = ""
        dump(credential, to: &dumped)
        for text in ["\(credential)", String(reflecting: credential), dumped] {
            #expect(!text.contains("SECRET"))
            #expect(text.contains("001.abc.0650"))
        }
    }
}
