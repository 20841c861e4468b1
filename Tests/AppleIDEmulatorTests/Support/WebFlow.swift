import Foundation
import JuiceTestSupport

@testable import AppleIDEmulator

/// Drives `/auth/authorize` like a browser (or a script) would.
enum WebFlow {
    static func parameters(
        clientID: String = Fixture.servicesID,
        redirectURI: String = Fixture.redirectURI,
        responseType: String = "code id_token",
        responseMode: String = "form_post",
        scope: String? = "name email",
        state: String = "state-123",
        nonce: String? = "nonce-456"
    ) -> [(String, String)] {
        var fields = [
            ("client_id", clientID), ("redirect_uri", redirectURI), ("response_type", responseType), ("response_mode", responseMode),
            ("state", state),
        ]
        if let scope { fields.append(("scope", scope)) }
        if let nonce { fields.append(("nonce", nonce)) }
        return fields
    }

    /// One POST carrying everything: sign-in, consent choices and `action=continue`.
    static func signIn(
        _ emulator: RunningEmulator,
        account: EmulatorConfiguration.AppleID = Fixture.alice,
        parameters: [(String, String)] = parameters(),
        emailChoice: String = "share",
        firstName: String? = nil,
        lastName: String? = nil,
        action: String = "continue",
        headers: [(String, String)] = []
    ) async throws -> HTTPResult {
        var fields =
            parameters + [("account_name", account.email), ("password", account.password), ("email_choice", emailChoice), ("action", action)]
        if let firstName { fields.append(("first_name", firstName)) }
        if let lastName { fields.append(("last_name", lastName)) }
        return try await emulator.http.postForm("/auth/authorize", fields, headers: headers)
    }

    /// The hidden inputs of a page, HTML-unescaped.
    static func hiddenInputs(_ html: String) -> [String: String] {
        var inputs: [String: String] = [:]
        let pattern = try! NSRegularExpression(pattern: #"<input type="hidden" name="([^"]*)" value="([^"]*)">"#)
        for match in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            let name = String(html[Range(match.range(at: 1), in: html)!])
            let value = String(html[Range(match.range(at: 2), in: html)!])
            inputs[unescape(name)] = unescape(value)
        }
        return inputs
    }

    /// The form action of a page.
    static func formAction(_ html: String) -> String? {
        guard let range = html.range(of: #"action="([^"]*)""#, options: .regularExpression) else { return nil }
        return unescape(String(html[range].dropFirst(8).dropLast()))
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Fields of a query string or fragment.
    static func fields(of text: Substring) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }

    /// Decodes a JWT's claims without verifying (to inspect exact shapes).
    static func claims(_ jwt: String) -> [String: Any] {
        let part = jwt.split(separator: ".")[1]
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return (try? JSONSerialization.jsonObject(with: Data(base64Encoded: base64)!)) as? [String: Any] ?? [:]
    }

    static func header(_ jwt: String) -> [String: Any] {
        let part = jwt.split(separator: ".")[0]
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return (try? JSONSerialization.jsonObject(with: Data(base64Encoded: base64)!)) as? [String: Any] ?? [:]
    }
}
