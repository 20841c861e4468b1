/// The shape of the JSON body the kit posts to the native sign-in endpoint (`--native-body`).
///
/// ```swift
/// options.nativePath = "/api/auth/apple/"
/// options.nativeBody = .restAuth   // dj-rest-auth's SocialLoginView
/// ```
public enum NativeBody: String, Sendable, Hashable, CaseIterable {
    /// `{"identityToken", "authorizationCode", "nonce", "user"}` (plus `fullName` and `email` on a first
    /// sign-in): the names of Apple's `ASAuthorizationAppleIDCredential`, which Juice and most hand-written
    /// backends take. Without a code, `authorizationCode` is left out.
    case juice
    /// dj-rest-auth's `SocialLoginView` (django-allauth's Apple adapter): `{"code", "id_token"}`; without a
    /// code, `{"access_token", "id_token"}` with an access token of the kit's invention, as its serializer
    /// takes either. It has no nonce field: the raw nonce is not sent.
    case restAuth = "rest-auth"

    /// The body for `token`, `code` (`nil`: the case sends none), the raw nonce and, on a first sign-in, the person's name and email.
    func fields(token: String, code: String?, rawNonce: String, newUser: (email: String, given: String, family: String)?) -> [String: ClaimValue] {
        switch self {
        case .juice:
            var body: [String: ClaimValue] = ["identityToken": .string(token), "nonce": .string(rawNonce)]
            if let code { body["authorizationCode"] = .string(code) }
            if let newUser {
                body["user"] = .object([
                    "name": .object(["firstName": .string(newUser.given), "lastName": .string(newUser.family)]), "email": .string(newUser.email),
                ])
                body["fullName"] = .object(["givenName": .string(newUser.given), "familyName": .string(newUser.family)])
                body["email"] = .string(newUser.email)
            }
            return body
        case .restAuth:
            guard let code else { return ["access_token": .string("a" + RandomText.hex32()), "id_token": .string(token)] }
            return ["code": .string(code), "id_token": .string(token)]
        }
    }
}
