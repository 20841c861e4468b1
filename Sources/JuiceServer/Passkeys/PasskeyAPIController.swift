import Foundation
import Hummingbird
import JuiceEncodings
import WebAuthn

/// The passkey routes of the JSON API (docs/openapi.yaml). Bodies are what
/// `PublicKeyCredential.toJSON()` gives (byte strings as base64url), so a browser's or an app's
/// answer is posted as it is.
///
/// | Route | Does |
/// |---|---|
/// | `POST /api/passkeys/registration/options` | begins adding a passkey to the signed-in account |
/// | `POST /api/passkeys/registration` | finishes it; 201 with the passkey |
/// | `GET /api/passkeys` | the signed-in account's passkeys |
/// | `PATCH /api/passkeys/{id}` | renames one (`{"name"}`) |
/// | `DELETE /api/passkeys/{id}` | removes one, unless it is the account's last way to sign in |
/// | `POST /api/auth/passkey/options` | begins a passkey sign-in |
/// | `POST /api/auth/passkey` | finishes it: `{token, account}` |
/// | `POST /api/passkeys/upgrade/options`, `POST /api/passkeys/upgrade` | an automatic upgrade (conditional create) for a session that signed in with a password in the last 5 minutes; 201 with the passkey (`automatic`) |
/// | `POST /api/accounts/passkey/options` | begins a sign-up with a passkey alone (`{"username"}`, or none) |
/// | `POST /api/accounts/passkey` | finishes it: 201 `{token, account}`, the account created with its passkey and session |
struct PasskeyAPIController: Sendable {
    /// A registration answer (`PublicKeyCredential.toJSON()` of `navigator.credentials.create()`).
    struct RegistrationBody: Decodable {
        struct Response: Decodable {
            var clientDataJSON: String
            var attestationObject: String
            var transports: [String]?
        }
        var id: String
        var rawId: String?
        var type: String
        var response: Response
        /// The name the person gave it.
        var name: String?
    }

    /// The username of a passkey sign-up; absent, `null` or empty for an account without one.
    struct SignUpOptionsBody: Decodable {
        var username: String?
    }

    /// A passkey sign-up's answer: the registration (`PublicKeyCredential.toJSON()`) with the
    /// `userHandle` (the options' `user.id`) and the `username` the options were asked for.
    struct SignUpBody: Decodable {
        var id: String
        var rawId: String?
        var type: String
        var response: RegistrationBody.Response
        var name: String?
        var userHandle: String
        var username: String?

        /// The registration part.
        var registration: RegistrationBody { RegistrationBody(id: id, rawId: rawId, type: type, response: response, name: name) }

        /// The user handle, 1 to 64 bytes.
        func userHandleBytes() throws -> [UInt8] {
            let bytes = try PasskeyAPIController.bytes(userHandle, "userHandle")
            guard (1...PasskeySignUpChallenges.maximumUserHandleLength).contains(bytes.count) else {
                throw ServerError.invalidRequest("userHandle is not 1 to \(PasskeySignUpChallenges.maximumUserHandleLength) bytes")
            }
            return bytes
        }
    }

    /// An assertion (`PublicKeyCredential.toJSON()` of `navigator.credentials.get()`).
    struct AuthenticationBody: Decodable {
        struct Response: Decodable {
            var clientDataJSON: String
            var authenticatorData: String
            var signature: String
            var userHandle: String?
        }
        var id: String
        var rawId: String?
        var type: String
        var response: Response
    }

    /// A passkey as the API shows it (never its key).
    struct PasskeyResponse: ResponseEncodable, Sendable {
        var id: String
        var name: String
        /// The provider's name from the authenticator's AAGUID ("iCloud Keychain", "1Password", …);
        /// "Passkey" when the AAGUID is zero, unknown or was not kept.
        var provider: String
        /// The authenticator's AAGUID (8-4-4-4-12 hex), `null` when not kept.
        var aaguid: String?
        var algorithm: String
        var transports: [String]
        var backupEligible: Bool
        var backedUp: Bool
        /// Whether it came by an automatic upgrade after a password sign-in.
        var automatic: Bool
        /// ISO 8601.
        var createdAt: String
        /// ISO 8601; `null` before its first sign-in.
        var lastUsedAt: String?

        init(_ credential: PasskeyCredential) {
            id = Base64URL.encode(credential.credentialID)
            name = credential.name
            provider = credential.providerName
            aaguid = credential.aaguid.flatMap(PasskeyProviders.text)
            algorithm = credential.algorithm.name
            transports = credential.transports
            backupEligible = credential.backupEligible
            backedUp = credential.backedUp
            automatic = credential.automatic
            createdAt = credential.createdAt.formatted(.iso8601)
            lastUsedAt = credential.lastUsedAt?.formatted(.iso8601)
        }
    }

    /// A new name.
    struct RenameBody: Decodable {
        var name: String
    }

    struct PasskeyListResponse: ResponseEncodable, Sendable {
        var passkeys: [PasskeyResponse]
    }

    let ceremonies: PasskeyCeremonies
    let signUp: PasskeySignUp
    /// Automatic upgrades after a password sign-in.
    var upgrade: PasskeyUpgrade { PasskeyUpgrade(ceremonies: ceremonies) }
    /// The passkeys, as the ceremonies store them.
    var store: PasskeyStore { ceremonies.store }

    func addRoutes(to routes: ProtectedRoutes) {
        // Passkey sign-in and sign-up over JSON answer a bearer token, never a cookie, and a browser cannot send
        // `application/json` cross-site (no CORS is allowed); the ceremony's single-use challenge binds each finish.
        let jsonSignIn = routes.exempt(because: "a JSON passkey sign-in or sign-up: no cross-site browser request can send it, and it sets no cookie")
        routes.signedInChanges.post("/api/passkeys/registration/options") {
            request, context -> EncodedOptions<PasskeyCeremonies.RegistrationOptions> in
            let signedIn = context.signedIn
            return EncodedOptions(options: try await ceremonies.beginRegistration(account: signedIn.account))
        }
        routes.signedInChanges.post("/api/passkeys/registration") { request, context -> EditedResponse<PasskeyResponse> in
            let signedIn = context.signedIn
            let body = try await request.decodeJSON(RegistrationBody.self)
            let credential = try await ceremonies.finishRegistration(
                accountID: signedIn.account.id, response: try body.registrationResponse(), transports: body.response.transports ?? [], name: body.name
            )
            return EditedResponse(status: .created, response: PasskeyResponse(credential))
        }
        routes.signedInReads.get("/api/passkeys") { _, context -> PasskeyListResponse in
            let signedIn = context.signedIn
            return PasskeyListResponse(passkeys: try await store.credentials(accountID: signedIn.account.id).map(PasskeyResponse.init))
        }
        routes.signedInChanges.patch("/api/passkeys/{id}") { request, context -> PasskeyResponse in
            let signedIn = context.signedIn
            let id = try Self.pathCredentialID(context)
            let body = try await request.decodeJSON(RenameBody.self)
            guard try await store.rename(credentialID: id, accountID: signedIn.account.id, to: try Self.newName(body.name)),
                let credential = try await store.credential(id: id)
            else {
                throw Self.noSuchPasskey
            }
            return PasskeyResponse(credential)
        }
        routes.signedInChanges.delete("/api/passkeys/{id}") { request, context -> Response in
            let signedIn = context.signedIn
            switch try await store.remove(credentialID: try Self.pathCredentialID(context), accountID: signedIn.account.id) {
            case .removed: return Response(status: .noContent, headers: [.cacheControl: "no-store"])
            case .notFound: throw Self.noSuchPasskey
            case .lastSignInMethod: throw Self.lastSignInMethod
            }
        }
        jsonSignIn.post("/api/auth/passkey/options") { _, _ -> EncodedOptions<PasskeyCeremonies.AuthenticationOptions> in
            EncodedOptions(options: ceremonies.beginAuthentication())
        }
        jsonSignIn.post("/api/auth/passkey") { request, _ -> APIController.SignInResponse in
            let body = try await request.decodeJSON(AuthenticationBody.self)
            let (token, account, _) = try await ceremonies.finishAuthentication(try body.authenticationResponse())
            return APIController.SignInResponse(token: token, account: APIController.AccountResponse(account))
        }
        routes.signedInChanges.post("/api/passkeys/upgrade/options") { request, context -> EncodedOptions<PasskeyCeremonies.RegistrationOptions> in
            let signedIn = context.signedIn
            return EncodedOptions(options: try await upgrade.begin(signedIn))
        }
        routes.signedInChanges.post("/api/passkeys/upgrade") { request, context -> EditedResponse<PasskeyResponse> in
            let signedIn = context.signedIn
            let body = try await request.decodeJSON(RegistrationBody.self)
            let credential = try await upgrade.finish(
                signedIn, response: try body.registrationResponse(), transports: body.response.transports ?? [], name: body.name)
            return EditedResponse(status: .created, response: PasskeyResponse(credential))
        }
        jsonSignIn.post("/api/accounts/passkey/options") { request, context -> EncodedOptions<PasskeyCeremonies.RegistrationOptions> in
            let body = try await request.decodeJSON(SignUpOptionsBody.self)
            return EncodedOptions(options: try await signUp.begin(username: body.username, address: context.clientAddress))
        }
        jsonSignIn.post("/api/accounts/passkey") { request, _ -> EditedResponse<APIController.SignInResponse> in
            let body = try await request.decodeJSON(SignUpBody.self)
            let (token, account, _) = try await signUp.finish(
                try body.registration.registrationResponse(), userHandle: try body.userHandleBytes(), username: body.username,
                transports: body.response.transports ?? [], name: body.name)
            return EditedResponse(
                status: .created, response: APIController.SignInResponse(token: token, account: APIController.AccountResponse(account)))
        }
    }

    /// The options in the shape `PublicKeyCredential.parseCreationOptionsFromJSON` and
    /// `parseRequestOptionsFromJSON` read: `{"publicKey": {…}}`.
    struct EncodedOptions<Options: Encodable & Sendable>: ResponseEncodable, Sendable {
        var publicKey: Options

        init(options: Options) { publicKey = options }
    }

    /// The credential id of a `PublicKeyCredential`: `id`, which `rawId` must equal when given.
    fileprivate static func credentialID(id: String, rawId: String?, type: String) throws -> [UInt8] {
        guard type == "public-key" else { throw ServerError.invalidRequest("type must be \"public-key\"") }
        guard rawId == nil || rawId == id else { throw ServerError.invalidRequest("id and rawId differ") }
        let bytes = try Self.bytes(id, "id")
        guard (1...AuthenticatorData.maximumCredentialIDLength).contains(bytes.count) else {
            throw ServerError.invalidRequest("id is not 1 to \(AuthenticatorData.maximumCredentialIDLength) bytes")
        }
        return bytes
    }

    /// 404: the signed-in account has no passkey with that id.
    static let noSuchPasskey = ServerError(.notFound, status: .notFound, "this account has no such passkey")

    /// 409: the passkey to remove is the account's last way to sign in.
    static let lastSignInMethod = ServerError(
        .lastSignInMethod, status: .conflict, "this passkey is the account's only way to sign in; add a password or another passkey first")

    /// A passkey's new name, trimmed of spaces: not empty, and within ``StoredTextRule/name`` (no control
    /// characters, at its ends neither; at most 64 Unicode scalars and 256 bytes), or 400 `invalid_text` /
    /// `text_too_long`.
    static func newName(_ raw: String) throws -> String {
        let name = StoredTextRule.trimmingSpaces(raw)
        try StoredTextRule.name.check(name)
        guard !name.isEmpty else { throw ServerError.invalidRequest("name must have 1 to \(StoredTextRule.name.maximumScalars) characters") }
        return name
    }

    /// The credential id in the path; an id that is not one is "no such passkey".
    private static func pathCredentialID(_ context: some RequestContext) throws -> [UInt8] {
        try credentialID(named: context.parameters.get("id"))
    }

    /// A credential id as the API and the account page name it (base64url); anything else is "no such passkey".
    static func credentialID(named text: String?) throws -> [UInt8] {
        guard let text, text.utf8.count <= 2048, let id = Base64URL.decode(text), !id.isEmpty else {
            throw Self.noSuchPasskey
        }
        return id
    }

    fileprivate static func bytes(_ text: String, _ field: String) throws -> [UInt8] {
        guard let bytes = Base64URL.decode(text) else { throw ServerError.invalidRequest("\(field) is not base64url") }
        return bytes
    }
}

extension PasskeyAPIController.RegistrationBody {
    /// The answer as the ceremony takes it; a field that is not base64url, or an id out of bounds, is `invalid_request`.
    func registrationResponse() throws -> RegistrationResponse {
        try RegistrationResponse(
            credentialID: try PasskeyAPIController.credentialID(id: id, rawId: rawId, type: type),
            clientDataJSON: try PasskeyAPIController.bytes(response.clientDataJSON, "response.clientDataJSON"),
            attestationObject: try PasskeyAPIController.bytes(response.attestationObject, "response.attestationObject"))
    }
}

extension PasskeyAPIController.AuthenticationBody {
    /// The assertion as the ceremony takes it (the API's sign-in and the login page's share it); a field
    /// that is not base64url, or an id out of bounds, is `invalid_request`.
    func authenticationResponse() throws -> AuthenticationResponse {
        try AuthenticationResponse(
            credentialID: try PasskeyAPIController.credentialID(id: id, rawId: rawId, type: type),
            clientDataJSON: try PasskeyAPIController.bytes(response.clientDataJSON, "response.clientDataJSON"),
            authenticatorData: try PasskeyAPIController.bytes(response.authenticatorData, "response.authenticatorData"),
            signature: try PasskeyAPIController.bytes(response.signature, "response.signature"),
            userHandle: try response.userHandle.map { try PasskeyAPIController.bytes($0, "response.userHandle") })
    }
}
