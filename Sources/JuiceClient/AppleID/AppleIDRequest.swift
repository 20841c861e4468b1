import AppleSignIn
import Foundation

/// A request for an Apple ID credential, as `ASAuthorizationAppleIDRequest`; made by
/// ``AppleIDProvider/createRequest()``, performed by an ``AuthorizationController``.
///
/// Interactively, it opens the browser at the server's loopback bridge
/// (`GET /auth/apple/native?redirect_uri=http://127.0.0.1:PORT/callback&state=…&nonce=…`), waits on the
/// loopback listener for Apple's answer, checks its `state` and builds the credential. Non-interactively,
/// with ``requestedOperation`` ``OpenIDOperation/operationImplicit``, it offers the Apple user of the
/// session saved for the server, when that user's credential state is still ``CredentialState/authorized``
/// (a credential without identity token or code).
///
/// ```swift
/// var request = provider.createRequest()
/// request.requestedScopes = [.fullName, .email]
/// request.nonce = Nonce.sha256Hex(rawNonce)
/// ```
public struct AppleIDRequest: AuthorizationRequest {
    /// The contact information asked for (the person may decline any of it).
    public var requestedScopes: [AuthorizationScope]?
    /// The nonce Apple puts into the identity token: the SHA-256 hex of the server's raw nonce.
    public var nonce: String?
    /// A value echoed back in the credential; when `nil`, an unguessable one is still used to tie the
    /// answer to this request.
    public var state: String?
    /// ``OpenIDOperation/operationImplicit`` (the default) may reuse a saved session;
    /// ``OpenIDOperation/operationLogin`` always signs in through the browser.
    public var requestedOperation: OpenIDOperation = .operationImplicit

    /// The provider that made the request.
    public let provider: AppleIDProvider

    init(provider: AppleIDProvider) {
        self.provider = provider
    }

    /// Performs the request; see the type's documentation.
    /// - Throws: ``AuthorizationError``: ``AuthorizationError/Code/canceled`` when the person cancels or
    ///   the wait times out, ``AuthorizationError/Code/invalidResponse`` for a state mismatch or an unusable
    ///   answer, ``AuthorizationError/Code/failed`` when the flow cannot run or Apple answers an error,
    ///   ``AuthorizationError/Code/notHandled`` non-interactively without an authorized saved user or for
    ///   an operation other than implicit and login.
    public func perform(interactive: Bool) async throws(AuthorizationError) -> AuthorizationCredential {
        guard requestedOperation == .operationImplicit || requestedOperation == .operationLogin else {
            throw .notHandled("the operation \"\(requestedOperation)\" is not supported")
        }
        return interactive ? .appleID(try await authorizeInBrowser()) : .appleID(try await savedCredential())
    }

    /// The saved session's Apple user, if its credential is still authorized.
    private func savedCredential() async throws(AuthorizationError) -> AppleIDCredential {
        guard requestedOperation == .operationImplicit else { throw .notHandled("the request asks for a new sign-in") }
        let user: String
        let credentialState: CredentialState
        do {
            guard let saved = try await provider.store.session(for: provider.server.baseURL)?.userIdentifier else {
                throw AuthorizationError.notHandled("no Apple ID session is saved for \(provider.server.baseURL.absoluteString)")
            }
            user = saved
            credentialState = try await provider.credentialState(forUserID: user)
        } catch let error as AuthorizationError {
            throw error
        } catch {
            throw .failed("cannot check the saved Apple ID: \(error)")
        }
        guard credentialState == .authorized else {
            throw .notHandled("the saved Apple ID's credential state is \(credentialState)")
        }
        return AppleIDCredential(
            user: user, state: state, authorizedScopes: [], authorizationCode: nil, identityToken: nil, email: nil, fullName: nil,
            realUserStatus: .unsupported
        )
    }

    /// The web flow through the loopback bridge, the browser and the loopback listener.
    private func authorizeInBrowser() async throws(AuthorizationError) -> AppleIDCredential {
        // The server's bridge refuses a request without a nonce; say so now rather than after the
        // person has waited at an error page until the timeout.
        guard let nonce, !nonce.isEmpty else {
            throw .failed("the request has no nonce: set it to Nonce.sha256Hex(of a nonce from POST /api/auth/nonce)")
        }
        let expectedState = state ?? provider.random.token()
        let callback = try await provider.receiver.receive { redirectURI throws(AuthorizationError) in
            let bridge = provider.server.loopbackBridgeURL(
                redirectURI: redirectURI, state: expectedState, nonce: nonce, scopes: requestedScopes ?? [])
            provider.browser.open(bridge)
        }
        return try credential(from: callback, expectedState: expectedState)
    }

    /// Builds the credential from the bridge's answer, refusing one that is not for this request.
    func credential(from callback: LoopbackCallback, expectedState: String) throws(AuthorizationError) -> AppleIDCredential {
        let response: AuthorizationResponse
        do throws(AuthorizationResponseError) {
            response = try AuthorizationResponse(fields: callback.fields)
        } catch {
            guard error.state == expectedState else {
                throw .invalidResponse("the answer's state does not match the request's (\(error.reason))")
            }
            switch error.code {
            case .userCancelled: throw .canceled("the person cancelled Sign in with Apple")
            case .appleError: throw .failed("Sign in with Apple answered \"\((error.appleError ?? "").prefix(80))\"")
            default: throw .invalidResponse(error.reason)
            }
        }
        guard response.state == expectedState else { throw .invalidResponse("the answer's state does not match the request's") }
        guard let identityToken = response.idToken else { throw .invalidResponse("the answer has no identity token") }
        guard let claims = IdentityTokenClaims(token: identityToken) else {
            throw .invalidResponse("the identity token is not a JWT with a \"sub\" claim")
        }
        if let nonce, claims.nonce != nonce { throw .invalidResponse("the identity token was not issued for this request's nonce") }
        let name = response.user?.name.map { PersonNameComponents(givenName: $0.firstName, familyName: $0.lastName) }
        let email = response.user?.email
        return AppleIDCredential(
            user: claims.subject,
            state: state ?? expectedState,
            authorizedScopes: (name == nil ? [] : [.fullName]) + (email == nil ? [] : [.email]),
            authorizationCode: Data(response.code.utf8),
            identityToken: Data(identityToken.utf8),
            email: email,
            fullName: name,
            realUserStatus: claims.realUserStatus ?? .unsupported
        )
    }
}
