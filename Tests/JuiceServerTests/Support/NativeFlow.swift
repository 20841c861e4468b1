import Crypto
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import NIOHTTP1
import Testing

@testable import AppleIDEmulator

/// Drives native Sign in with Apple the way the Juice iOS app does: a nonce from the server, a
/// device credential from the emulator (`POST /emulator/device/authorize`, standing in for the
/// system sheet) with the nonce's SHA-256 hex, then the credential to `POST /api/auth/apple`.
enum NativeFlow {
    /// What `ASAuthorizationAppleIDCredential` carries.
    struct Credential: Sendable {
        var user: String
        var identityToken: String
        var authorizationCode: String
        var givenName: String?
        var familyName: String?
        var email: String?
    }

    static func sha256Hex(_ text: String) -> String {
        SHA256.hash(data: Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// `POST /api/auth/nonce`.
    static func nonce(_ stack: JuiceStack) async throws -> String {
        let answer = try await Browser().send(.POST, stack.serverURL + "/api/auth/nonce", headers: [], body: nil)
        #expect(answer.status == 200)
        return try #require(answer.json?["nonce"] as? String)
    }

    /// The emulator's device sheet, with `SHA256(nonce)` as the request nonce.
    static func deviceCredential(
        _ stack: JuiceStack, nonce: String, account: EmulatorConfiguration.AppleID = StackEnvironment.johnny,
        clientID: String = StackEnvironment.bundleID, emailChoice: String = "share"
    ) async throws -> Credential {
        let answer = try await Browser().postForm(
            stack.emulatorURL + "/emulator/device/authorize",
            [
                ("client_id", clientID), ("scope", "name email"), ("nonce", sha256Hex(nonce)), ("state", "device-state"),
                ("account_name", account.email), ("password", account.password), ("first_name", account.firstName),
                ("last_name", account.lastName), ("email_choice", emailChoice),
            ]
        )
        #expect(answer.status == 200, "the emulator answered \(answer.status): \(answer.body.prefix(300))")
        let json = try #require(answer.json)
        let fullName = json["fullName"] as? [String: Any]
        return Credential(
            user: try #require(json["user"] as? String), identityToken: try #require(json["identityToken"] as? String),
            authorizationCode: try #require(json["authorizationCode"] as? String), givenName: fullName?["givenName"] as? String,
            familyName: fullName?["familyName"] as? String, email: json["email"] as? String
        )
    }

    /// `POST /api/auth/apple` with a JSON body.
    static func post(_ stack: JuiceStack, _ body: [String: Any], bearer: String? = nil) async throws -> HTTPResult {
        let data = try JSONSerialization.data(withJSONObject: body)
        var headers = [("Content-Type", "application/json")]
        if let bearer { headers.append(("Authorization", "Bearer \(bearer)")) }
        return try await Browser().send(.POST, stack.serverURL + "/api/auth/apple", headers: headers, body: String(decoding: data, as: UTF8.self))
    }

    /// The body an app sends for `credential`.
    static func body(_ credential: Credential, nonce: String, withCode: Bool = true) -> [String: Any] {
        var body: [String: Any] = ["identityToken": credential.identityToken, "nonce": nonce]
        if withCode { body["authorizationCode"] = credential.authorizationCode }
        if credential.givenName != nil || credential.familyName != nil {
            body["fullName"] = ["givenName": credential.givenName as Any, "familyName": credential.familyName as Any]
        }
        if let email = credential.email { body["email"] = email }
        return body
    }

    /// The whole native sign-in; returns the session token, the account JSON and the credential.
    static func signIn(
        _ stack: JuiceStack, account: EmulatorConfiguration.AppleID = StackEnvironment.johnny, emailChoice: String = "share"
    ) async throws -> (token: String, account: [String: Any], credential: Credential) {
        let nonce = try await nonce(stack)
        let credential = try await deviceCredential(stack, nonce: nonce, account: account, emailChoice: emailChoice)
        let answer = try await post(stack, body(credential, nonce: nonce))
        #expect(answer.status == 200, "sign-in answered \(answer.status): \(answer.body.prefix(300))")
        let json = try #require(answer.json)
        return (try #require(json["token"] as? String), try #require(json["account"] as? [String: Any]), credential)
    }

    /// `GET /api/credential-state?user=…`.
    static func credentialState(_ stack: JuiceStack, user: String) async throws -> String? {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let answer = try await Browser().get(
            stack.serverURL + "/api/credential-state?user=" + user.addingPercentEncoding(withAllowedCharacters: allowed)!)
        return answer.json?["state"] as? String
    }

    /// Polls `condition` until it holds (notifications arrive asynchronously) or `timeout` passes.
    static func eventually(timeout: Duration = .seconds(20), _ condition: @Sendable () async throws -> Bool) async throws -> Bool {
        let held: Bool? = try await JuiceTestSupport.eventually(timeout: timeout, interval: .milliseconds(100)) {
            try await condition() ? true : nil
        }
        if held != nil { return true }
        return try await condition()
    }
}
