import AppleIDEmulator
import AppleSignIn
import Crypto
import Foundation
import JuiceEncodings
import JuiceTestSupport
import Testing

@testable import AppleSignInConformance

@Suite("the kit's token endpoint answers as Apple's does")
struct TokenEndpointTests {
    /// The kit's Apple, its client-secret check on a fresh directory, and a signer for the team key.
    static func authority(_ body: (KitAuthority, ClientSecretSigner) async throws -> Void) async throws {
        let directory = try TemporaryDirectory("kit-token")
        defer { directory.remove() }
        let teamKey = P256.Signing.PrivateKey()
        let secrets = try await ConformanceClientSecretCheck.open(
            teamID: "TEAMCONF01", keyID: "KEYCONF001", publicKeyPEM: teamKey.publicKey.pemRepresentation,
            clientIDs: ["com.example.app", "com.example.web"], baseURL: "http://127.0.0.1:1", issuer: "https://appleid.apple.com",
            directory: directory.url, time: .system)
        let authority = KitAuthority(keys: try KitKeys(), secrets: secrets, issuer: "https://appleid.apple.com")
        let signer = try ClientSecretSigner(teamID: "TEAMCONF01", keyID: "KEYCONF001", privateKey: teamKey)
        try await body(authority, signer)
        await secrets.close()
    }

    static func redeem(
        _ code: String, clientID: String, redirectURI: String?, _ authority: KitAuthority, _ signer: ClientSecretSigner
    ) async throws
        -> (header: [String: Any], claims: [String: Any])
    {
        var form = [
            "grant_type": "authorization_code", "code": code, "client_id": clientID, "client_secret": try await signer.secret(for: clientID).jwt,
        ]
        form["redirect_uri"] = redirectURI
        guard case .tokens(let body) = await authority.token(form: form), let token = body.idToken else {
            Issue.record("the kit's token endpoint answered no id_token")
            return ([:], [:])
        }
        let parts = token.split(separator: ".").map { Data(Base64URL.decode($0) ?? []) }
        let header = try #require(try JSONSerialization.jsonObject(with: parts[0]) as? [String: Any])
        let claims = try #require(try JSONSerialization.jsonObject(with: parts[1]) as? [String: Any])
        return (header, claims)
    }

    @Test("a web code's id_token carries the nonce, email, email booleans, auth_time and nonce_supported, signed under the form_post token's kid")
    func webCode() async throws {
        try await Self.authority { authority, signer in
            let content = TokenMint.IdentityContent(
                subject: "001234.abc", audience: "com.example.web", nonce: "n-123", email: "x1@private.icloud.com", isPrivateEmail: true,
                booleans: .strings)
            let code = await authority.issueCode(
                clientID: "com.example.web", redirectURI: "http://127.0.0.1:2/cb", content: content, defect: .none, refused: false)
            let (header, claims) = try await Self.redeem(code, clientID: "com.example.web", redirectURI: "http://127.0.0.1:2/cb", authority, signer)
            #expect(header["kid"] as? String == (await authority.keys.active.keyID))
            #expect(header["alg"] as? String == "RS256")
            #expect(claims["nonce"] as? String == "n-123")
            #expect(claims["email"] as? String == "x1@private.icloud.com")
            #expect(claims["email_verified"] as? String == "true")
            #expect(claims["is_private_email"] as? String == "true")
            #expect(claims["nonce_supported"] as? Bool == true)
            #expect(claims["auth_time"] is NSNumber)
            #expect(claims["at_hash"] is String)
            #expect(claims["c_hash"] == nil)
            #expect(claims["real_user_status"] == nil)
            #expect(claims["iss"] as? String == "https://appleid.apple.com")
            #expect(claims["sub"] as? String == "001234.abc")
        }
    }

    @Test("a native code's id_token carries real_user_status; a damaged case damages it too; a code redeems once")
    func nativeCodeDamaged() async throws {
        try await Self.authority { authority, signer in
            var content = TokenMint.IdentityContent(subject: "001234.def", audience: "com.example.app", nonce: "hash", email: "a@example.com")
            content.realUserStatus = 2
            let code = await authority.issueCode(clientID: "com.example.app", redirectURI: nil, content: content, defect: .none, refused: false)
            let (_, claims) = try await Self.redeem(code, clientID: "com.example.app", redirectURI: nil, authority, signer)
            #expect(claims["real_user_status"] as? Int == 2)
            #expect(claims["email_verified"] as? Bool == true)
            let replayed = await authority.token(form: [
                "grant_type": "authorization_code", "code": code, "client_id": "com.example.app",
                "client_secret": try await signer.secret(for: "com.example.app").jwt,
            ])
            guard case .error(let error, _) = replayed else {
                Issue.record("a redeemed code was redeemed again")
                return
            }
            #expect(error == "invalid_grant")

            let damaged = await authority.issueCode(
                clientID: "com.example.app", redirectURI: nil, content: content, defect: .wrongAudience, refused: false)
            let (_, wrong) = try await Self.redeem(damaged, clientID: "com.example.app", redirectURI: nil, authority, signer)
            #expect(wrong["aud"] as? String == "com.example.app.other")
            // c_hash belongs to the form_post token: the token endpoint's stays undamaged by that case.
            let hashCase = await authority.issueCode(
                clientID: "com.example.app", redirectURI: nil, content: content, defect: .codeHashMismatch, refused: false)
            let (_, undamaged) = try await Self.redeem(hashCase, clientID: "com.example.app", redirectURI: nil, authority, signer)
            #expect(undamaged["aud"] as? String == "com.example.app")
        }
    }

    @Test("the kit redeems codes by the emulator's redirect rule: a native code with any redirect_uri, a web code with its own only")
    func redirectRule() async throws {
        try await Self.authority { authority, signer in
            let native = await authority.issueCode(
                clientID: "com.example.app", redirectURI: nil,
                content: .init(subject: "001234.ghi", audience: "com.example.app", nonce: nil, email: nil), defect: .none, refused: false)
            let (_, claims) = try await Self.redeem(
                native, clientID: "com.example.app", redirectURI: "https://backend.example.net/accounts/apple/login/callback/", authority, signer)
            #expect(claims["sub"] as? String == "001234.ghi")

            for presented in ["http://127.0.0.1:2/other", "", nil] as [String?] {
                let web = await authority.issueCode(
                    clientID: "com.example.web", redirectURI: "http://127.0.0.1:2/cb",
                    content: .init(subject: "001234.jkl", audience: "com.example.web", nonce: nil, email: nil), defect: .none, refused: false)
                var form = [
                    "grant_type": "authorization_code", "code": web, "client_id": "com.example.web",
                    "client_secret": try await signer.secret(for: "com.example.web").jwt,
                ]
                form["redirect_uri"] = presented
                guard case .error(let error, _) = await authority.token(form: form) else {
                    Issue.record("a web code was redeemed with redirect_uri \(presented ?? "absent")")
                    continue
                }
                #expect(error == "invalid_grant")
            }
        }
    }
}
