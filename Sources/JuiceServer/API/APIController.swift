import AppleSignIn
import Foundation
import Hummingbird

/// The JSON API (described by `docs/openapi.yaml`, served at `GET /openapi.yaml`).
///
/// Sign-in routes answer `{token, account}`; the token works as `Authorization: Bearer <token>` (and
/// is the value of the session cookie). Every error is the status with `{"error", "reason"}`; bodies
/// must be `application/json` (415 otherwise), at most 64 KiB (413), and valid (400).
///
/// | Route | Does |
/// |---|---|
/// | `POST /api/auth/nonce` | a single-use nonce (10 minutes) for native sign-in |
/// | `POST /api/auth/apple` | native Sign in with Apple |
/// | `POST /api/accounts` | password sign-up |
/// | `POST /api/auth/password` | password sign-in |
/// | `GET /api/me` | the signed-in account |
/// | `POST /api/signout` | ends this session |
/// | `DELETE /api/account` | deletes the account and revokes its Apple tokens |
/// | `GET /api/credential-state` | `authorized`, `revoked`, `notFound` or `transferred` |
struct APIController: Sendable {
    /// An account as the API shows it.
    struct AccountResponse: ResponseEncodable, Sendable, Hashable {
        /// A person's name.
        struct Name: Codable, Sendable, Hashable {
            var givenName: String?
            var familyName: String?
        }

        /// The account id.
        var id: String
        /// The Apple user identifier (`sub`), when an Apple ID is linked.
        var user: String?
        /// The name.
        var name: Name
        /// The contact email (possibly a relay address).
        var email: String?
        /// Whether `email` is a private relay address.
        var isPrivateEmail: Bool
        /// Apple's real-user status: `unsupported`, `unknown` or `likelyReal`; `null` when unknown.
        var realUserStatus: String?
        /// The password username, when the account has a password.
        var username: String?

        /// The API view of `account`.
        init(_ account: Account) {
            self.id = account.id
            self.user = account.apple?.subject
            self.name = Name(givenName: account.givenName, familyName: account.familyName)
            self.email = account.email
            self.isPrivateEmail = account.isPrivateEmail
            self.realUserStatus = account.apple?.realUserStatus.map {
                switch $0 {
                case .unsupported: return "unsupported"
                case .unknown: return "unknown"
                case .likelyReal: return "likelyReal"
                }
            }
            self.username = account.username
        }
    }

    /// `{token, account}`: a sign-in's answer.
    struct SignInResponse: ResponseEncodable, Sendable {
        /// The session token (`Authorization: Bearer`).
        var token: String
        /// The account.
        var account: AccountResponse
    }

    /// `{"nonce"}`.
    struct NonceResponse: ResponseEncodable, Sendable {
        /// The raw nonce; send its SHA-256 hex to Apple (the JSON field `nonce`).
        var rawNonce: String

        enum CodingKeys: String, CodingKey {
            case rawNonce = "nonce"
        }
    }

    /// `{"state"}`.
    struct CredentialStateResponse: ResponseEncodable, Sendable {
        /// The credential state.
        var state: CredentialState
    }

    /// `POST /api/auth/apple`'s body: the Apple ID credential as an iOS app holds it.
    struct AppleSignInBody: Decodable {
        struct FullName: Decodable {
            var givenName: String?
            var familyName: String?
        }
        var identityToken: String
        var authorizationCode: String?
        /// The raw nonce from `POST /api/auth/nonce` (the JSON field `nonce`).
        var rawNonce: String
        var fullName: FullName?
        var email: String?

        enum CodingKeys: String, CodingKey {
            case identityToken, authorizationCode, fullName, email
            case rawNonce = "nonce"
        }
    }

    /// A username and password.
    struct PasswordBody: Decodable {
        var username: String
        var password: String
    }

    /// `DELETE /api/account`'s answer.
    struct DeletedResponse: ResponseEncodable {
        var deleted: Bool
        var appleRevocation: AccountDeletion.Revocation
    }

    struct SignedOutResponse: ResponseEncodable {
        var signedOut: Bool
    }

    let native: AppleNativeSignIn
    let passwords: PasswordAccounts
    let sessions: SessionStore
    let deletion: AccountDeletion
    let lifecycle: AppleLifecycleStore

    func addRoutes(to routes: ProtectedRoutes) {
        // JSON sign-ins: a browser cannot send `application/json` cross-site without CORS (none is allowed), and
        // they answer a bearer token, never a cookie.
        let jsonSignIn = routes.exempt(because: "a JSON sign-in: no cross-site browser request can send it, and it sets no cookie")
        jsonSignIn.post("/api/auth/nonce") { _, _ in
            NonceResponse(rawNonce: native.issueNonce())
        }
        jsonSignIn.post("/api/auth/apple") { request, context in
            let body = try await request.decodeJSON(AppleSignInBody.self)
            let signedIn = context.signedIn.flatMap { $0.viaCookie ? nil : $0 }
            let (sessionToken, result) = try await native.signIn(
                .init(
                    identityToken: body.identityToken, authorizationCode: body.authorizationCode, rawNonce: body.rawNonce,
                    givenName: body.fullName?.givenName, familyName: body.fullName?.familyName
                ),
                linkTo: signedIn?.account.id, replacingSession: signedIn?.session.id
            )
            return SignInResponse(token: sessionToken, account: AccountResponse(result.account))
        }
        jsonSignIn.post("/api/accounts") { request, context -> EditedResponse<SignInResponse> in
            let body = try await request.decodeJSON(PasswordBody.self)
            let (sessionToken, account, _) = try await passwords.signUp(
                username: body.username, password: body.password, address: context.clientAddress)
            return EditedResponse(status: .created, response: SignInResponse(token: sessionToken, account: AccountResponse(account)))
        }
        jsonSignIn.post("/api/auth/password") { request, context in
            let body = try await request.decodeJSON(PasswordBody.self)
            let (sessionToken, account, _) = try await passwords.signIn(
                username: body.username, password: body.password, address: context.clientAddress)
            return SignInResponse(token: sessionToken, account: AccountResponse(account))
        }
        routes.signedInReads.get("/api/me") { _, context -> AccountResponse in
            AccountResponse(context.signedIn.account)
        }
        routes.signedInChanges.post("/api/signout") { _, context in
            try await sessions.end(sessionID: context.signedIn.session.id)
            return SignedOutResponse(signedOut: true)
        }
        routes.signedInChanges.delete("/api/account") { _, context in
            let revocation = try await deletion.delete(accountID: context.signedIn.account.id, logger: context.logger)
            return DeletedResponse(deleted: revocation != nil, appleRevocation: revocation ?? .noToken)
        }
        // With `?user=` anyone may ask about one Apple user (what an app asks at launch); without it, the signed-in one.
        routes.openReads.get("/api/credential-state") { request, context in
            if let user = request.uri.queryParameters.get("user") {
                guard !user.isEmpty, user.utf8.count <= 256 else { throw ServerError.invalidRequest("user must be an Apple user identifier") }
                return CredentialStateResponse(state: try await lifecycle.credentialState(subject: user))
            }
            let signedIn = try context.requireSignedIn()
            guard let subject = signedIn.account.apple?.subject else { return CredentialStateResponse(state: .notFound) }
            return CredentialStateResponse(state: try await lifecycle.credentialState(subject: subject))
        }
    }
}
