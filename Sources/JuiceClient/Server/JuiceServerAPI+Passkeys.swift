import Foundation
import JuiceEncodings
import NIOHTTP1

extension JuiceServerAPI {
    /// `POST /api/passkeys/registration/options`: begins adding a passkey to the signed-in account.
    public func beginPasskeyRegistration(sessionToken: String) async throws(JuiceServerError) -> PasskeyCreationOptions {
        let path = "api/passkeys/registration/options"
        let options = try await decode(Wrapped<CreationWire>.self, .POST, path, sessionToken: sessionToken).publicKey
        return try Self.creationOptions(options, path: path)
    }

    /// The creation options of an answer to `path`.
    private static func creationOptions(_ options: CreationWire, path: String) throws(JuiceServerError) -> PasskeyCreationOptions {
        let rpID = options.rp.id
        guard !rpID.isEmpty, let challenge = bytes(options.challenge), !challenge.isEmpty, let userID = bytes(options.user.id),
            !userID.isEmpty
        else {
            throw .unexpectedResponse(status: 200, "the answer to POST /\(path) has no RP id, challenge or user handle")
        }
        let excluded = try credentialIDs(options.excludeCredentials, "an excluded")
        return PasskeyCreationOptions(
            challenge: challenge, relyingPartyIdentifier: rpID, userID: userID, userName: options.user.name, displayName: options.user.displayName,
            excludedCredentials: excluded,
            userVerification: PublicKeyCredentialUserVerificationPreference(rawValue: options.authenticatorSelection?.userVerification ?? "preferred")
        )
    }

    /// `POST /api/accounts/passkey/options`: begins a sign-up with a passkey alone, for a new account
    /// named `username` (`nil`: an account without a username). The options' ``PasskeyCreationOptions/userID``
    /// is the new account's user handle, which the finish must send back.
    public func beginPasskeySignUp(username: String?) async throws(JuiceServerError) -> PasskeyCreationOptions {
        let path = "api/accounts/passkey/options"
        let options = try await decode(Wrapped<CreationWire>.self, .POST, path, body: SignUpStart(username: username)).publicKey
        return try Self.creationOptions(options, path: path)
    }

    /// `POST /api/accounts/passkey`: creates the account of a passkey sign-up with `registration`, the
    /// options' `userHandle` and the `username` they were asked for, and signs it in.
    public func finishPasskeySignUp(
        _ registration: PlatformPublicKeyCredentialRegistration, userHandle: Data, username: String?, name: String?
    ) async throws(JuiceServerError) -> ServerSession {
        let id = Base64URL.encode(registration.credentialID)
        let body = SignUpBody(
            id: id, rawId: id,
            response: .init(
                clientDataJSON: Base64URL.encode(registration.rawClientDataJSON),
                attestationObject: Base64URL.encode(registration.rawAttestationObject ?? Data())),
            name: name, userHandle: Base64URL.encode(userHandle), username: username)
        return try await decode(ServerSession.self, .POST, "api/accounts/passkey", body: body)
    }

    /// `POST /api/passkeys/registration`: finishes adding `registration`, named `name`, to the signed-in account.
    public func finishPasskeyRegistration(
        _ registration: PlatformPublicKeyCredentialRegistration, name: String?, sessionToken: String
    ) async throws(JuiceServerError) -> ServerPasskey {
        let id = Base64URL.encode(registration.credentialID)
        let body = RegistrationBody(
            id: id, rawId: id,
            response: .init(
                clientDataJSON: Base64URL.encode(registration.rawClientDataJSON),
                attestationObject: Base64URL.encode(registration.rawAttestationObject ?? Data())),
            name: name)
        return try await decode(ServerPasskey.self, .POST, "api/passkeys/registration", sessionToken: sessionToken, body: body)
    }

    /// `GET /api/passkeys`: the signed-in account's passkeys.
    public func passkeys(sessionToken: String) async throws(JuiceServerError) -> [ServerPasskey] {
        try await decode(PasskeyList.self, .GET, "api/passkeys", sessionToken: sessionToken).passkeys
    }

    /// `DELETE /api/passkeys/{id}`: removes a passkey of the signed-in account (refused with
    /// `last_sign_in_method` when it is the account's only way to sign in).
    public func removePasskey(id: String, sessionToken: String) async throws(JuiceServerError) {
        guard let bytes = Self.bytes(id), !bytes.isEmpty else { throw JuiceServerError(.invalidRequest, "a passkey id is base64url") }
        _ = try await send(.DELETE, "api/passkeys/\(Base64URL.encode(bytes))", sessionToken: sessionToken)
    }

    /// `POST /api/auth/passkey/options`: begins a passkey sign-in.
    public func beginPasskeySignIn() async throws(JuiceServerError) -> PasskeyRequestOptions {
        let path = "api/auth/passkey/options"
        let options = try await decode(Wrapped<RequestWire>.self, .POST, path).publicKey
        guard !options.rpId.isEmpty, let challenge = Self.bytes(options.challenge), !challenge.isEmpty else {
            throw .unexpectedResponse(status: 200, "the answer to POST /\(path) has no RP id or challenge")
        }
        let allowed = try Self.credentialIDs(options.allowCredentials, "an allowed")
        return PasskeyRequestOptions(
            challenge: challenge, relyingPartyIdentifier: options.rpId, allowedCredentials: allowed,
            userVerification: PublicKeyCredentialUserVerificationPreference(rawValue: options.userVerification ?? "preferred"))
    }

    /// `POST /api/auth/passkey`: signs in with `assertion`.
    public func signInWithPasskey(_ assertion: PlatformPublicKeyCredentialAssertion) async throws(JuiceServerError) -> ServerSession {
        let id = Base64URL.encode(assertion.credentialID)
        let body = AssertionBody(
            id: id, rawId: id,
            response: .init(
                clientDataJSON: Base64URL.encode(assertion.rawClientDataJSON), authenticatorData: Base64URL.encode(assertion.rawAuthenticatorData),
                signature: Base64URL.encode(assertion.signature), userHandle: Base64URL.encode(assertion.userID)))
        return try await decode(ServerSession.self, .POST, "api/auth/passkey", body: body)
    }

    /// The ids of the descriptors; ``JuiceServerError/Code/unexpectedResponse`` for one that is not base64url.
    private static func credentialIDs(_ descriptors: [DescriptorWire]?, _ kind: String) throws(JuiceServerError) -> [Data] {
        var ids: [Data] = []
        for descriptor in descriptors ?? [] {
            guard let id = bytes(descriptor.id) else { throw .unexpectedResponse(status: 200, "\(kind) credential id is not base64url") }
            ids.append(id)
        }
        return ids
    }

    private static func bytes(_ text: String) -> Data? {
        Base64URL.decode(text).map { Data($0) }
    }
}

/// The server's `{"publicKey": {…}}` wrapping of options.
private struct Wrapped<Options: Decodable>: Decodable {
    var publicKey: Options
}

/// A `PublicKeyCredentialDescriptorJSON`.
private struct DescriptorWire: Decodable {
    var id: String
}

/// The fields of `PublicKeyCredentialCreationOptionsJSON` the client uses.
private struct CreationWire: Decodable {
    struct RelyingParty: Decodable { var id: String }
    struct User: Decodable {
        var id: String
        var name: String
        var displayName: String
    }
    struct Selection: Decodable { var userVerification: String? }
    var challenge: String
    var rp: RelyingParty
    var user: User
    var excludeCredentials: [DescriptorWire]?
    var authenticatorSelection: Selection?
}

/// The fields of `PublicKeyCredentialRequestOptionsJSON` the client uses.
private struct RequestWire: Decodable {
    var challenge: String
    var rpId: String
    var allowCredentials: [DescriptorWire]?
    var userVerification: String?
}

/// `GET /api/passkeys`.
private struct PasskeyList: Decodable {
    var passkeys: [ServerPasskey]
}

/// `PublicKeyCredential.toJSON()` of a registration, and its name.
private struct RegistrationBody: Encodable, Sendable {
    struct Response: Encodable, Sendable {
        var clientDataJSON: String
        var attestationObject: String
        var transports = ["internal"]
    }
    var id: String
    var rawId: String
    var type = "public-key"
    var response: Response
    var name: String?
}

/// A passkey sign-up's username (`null` for none).
private struct SignUpStart: Encodable, Sendable {
    var username: String?
}

/// `PublicKeyCredential.toJSON()` of a sign-up's registration, with the user handle and username.
private struct SignUpBody: Encodable, Sendable {
    var id: String
    var rawId: String
    var type = "public-key"
    var response: RegistrationBody.Response
    var name: String?
    var userHandle: String
    var username: String?
}

/// `PublicKeyCredential.toJSON()` of an assertion.
private struct AssertionBody: Encodable, Sendable {
    struct Response: Encodable, Sendable {
        var clientDataJSON: String
        var authenticatorData: String
        var signature: String
        var userHandle: String
    }
    var id: String
    var rawId: String
    var type = "public-key"
    var response: Response
}
