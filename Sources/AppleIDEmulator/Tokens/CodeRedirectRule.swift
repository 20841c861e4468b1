/// Which `redirect_uri` may redeem an authorization code at `/auth/token`: the emulator's rule and the
/// conformance kit's, so the two never disagree.
///
/// - A code issued with a redirect URI (a web authorization) is redeemed only with that exact URI.
/// - A code issued without one (a device sign-in, by a bundle id) is redeemed whether or not the request
///   names one, and whatever it names. Apple accepts that request: dj-rest-auth with django-allauth's
///   Apple adapter, the `apple-auth` npm package and the server the Flutter `sign_in_with_apple` package
///   points to all send their web callback URL with a native code. Apple's documentation asks for
///   `redirect_uri` only when the authorization had one, and documents no refusal.
///
/// An empty `redirect_uri` counts as none.
package enum CodeRedirectRule {
    /// Why `presented` may not redeem a code issued with `issuedWith`, or `nil` when it may.
    package static func problem(issuedWith: String?, presented: String?) -> String? {
        guard let issuedWith, !issuedWith.isEmpty else { return nil }
        guard let presented, !presented.isEmpty else { return "this code was issued for a redirect_uri, and the request names none" }
        return presented == issuedWith ? nil : "redirect_uri does not match the authorization request"
    }
}
