import Hummingbird

/// The OpenAPI 3.1 description of the API, served at `GET /openapi.yaml`.
///
/// The text is `docs/openapi.yaml`; a test keeps the two identical and validates the document.
enum OpenAPIDocument {
    /// The document (YAML).
    static let yaml = #"""
        openapi: 3.1.0
        info:
          title: Juice API
          version: 1.0.0
          summary: Sign in with Apple (native and relayed), password accounts, sessions and Apple's account lifecycle.
          description: |
            Sign-in routes answer `{token, account}`. Send the token as `Authorization: Bearer <token>`
            (it is also the value of the `juice_session` cookie set by the web flow).

            Every error is an HTTP status with the JSON body `{"error": "<code>", "reason": "<text>"}`.
            Request bodies must be `application/json` (415 `unsupported_media_type` otherwise), at most
            64 KiB (413 `payload_too_large`) and valid (400 `invalid_request`).

            Native sign-in: `POST /api/auth/nonce` gives a raw nonce; the app sends the lowercase hex
            SHA-256 of it to Apple as the request nonce, then posts the credential with the raw nonce to
            `POST /api/auth/apple`. The nonce is single use and expires after 10 minutes.
        servers:
          - url: http://localhost:8080
        paths:
          /api/auth/nonce:
            post:
              operationId: createNonce
              summary: A single-use nonce for native sign-in (10 minutes).
              responses:
                "200":
                  description: The raw nonce; send its SHA-256 hex to Apple.
                  content:
                    application/json:
                      schema: { $ref: "#/components/schemas/Nonce" }
          /api/auth/apple:
            post:
              operationId: signInWithApple
              summary: Native Sign in with Apple.
              description: |
                Verifies the identity token (issuer, audience = the bundle id or the Services ID, expiry,
                nonce = SHA-256 hex of `nonce`, `c_hash` when a code is sent), consumes the nonce, exchanges
                the code (bundle id, no redirect URI), and finds or creates the account by Apple `sub`.
                The name from `fullName` is kept once and never overwritten. A bearer token of a signed-in
                password account links the Apple ID to it.
              requestBody:
                required: true
                content:
                  application/json:
                    schema: { $ref: "#/components/schemas/AppleCredential" }
              responses:
                "200":
                  description: Signed in.
                  content:
                    application/json:
                      schema: { $ref: "#/components/schemas/SignIn" }
                "400": { $ref: "#/components/responses/Error" }
                "409": { $ref: "#/components/responses/Error" }
                "413": { $ref: "#/components/responses/Error" }
                "415": { $ref: "#/components/responses/Error" }
                "503": { $ref: "#/components/responses/Error" }
          /api/accounts:
            post:
              operationId: signUp
              summary: Password sign-up.
              requestBody:
                required: true
                content:
                  application/json:
                    schema: { $ref: "#/components/schemas/Password" }
              responses:
                "201":
                  description: Account created and signed in.
                  content:
                    application/json:
                      schema: { $ref: "#/components/schemas/SignIn" }
                "400": { $ref: "#/components/responses/Error" }
                "409": { $ref: "#/components/responses/Error" }
          /api/auth/password:
            post:
              operationId: signInWithPassword
              summary: Password sign-in (rate-limited; one answer for every failure).
              requestBody:
                required: true
                content:
                  application/json:
                    schema: { $ref: "#/components/schemas/Password" }
              responses:
                "200":
                  description: Signed in.
                  content:
                    application/json:
                      schema: { $ref: "#/components/schemas/SignIn" }
                "401": { $ref: "#/components/responses/Error" }
                "429": { $ref: "#/components/responses/Error" }
          /api/me:
            get:
              operationId: me
              summary: The signed-in account.
              security: [{ bearer: [] }, { cookie: [] }]
              responses:
                "200":
                  description: The account.
                  content:
                    application/json:
                      schema: { $ref: "#/components/schemas/Account" }
                "401": { $ref: "#/components/responses/Error" }
          /api/signout:
            post:
              operationId: signOut
              summary: Ends this session.
              security: [{ bearer: [] }, { cookie: [] }]
              responses:
                "200":
                  description: Signed out.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [signedOut]
                        properties:
                          signedOut: { type: boolean }
                "401": { $ref: "#/components/responses/Error" }
          /api/account:
            delete:
              operationId: deleteAccount
              summary: Deletes the account and revokes its Apple tokens.
              description: |
                The account, its Apple ID, password and sessions are deleted at once. The Apple refresh
                token is revoked at Apple; when Apple cannot be reached the revocation is queued durably
                and retried with backoff until Apple confirms (`appleRevocation: queued`).
              security: [{ bearer: [] }, { cookie: [] }]
              responses:
                "200":
                  description: Deleted.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [deleted, appleRevocation]
                        properties:
                          deleted: { type: boolean }
                          appleRevocation: { type: string, enum: [revoked, queued, none] }
                "401": { $ref: "#/components/responses/Error" }
          /api/credential-state:
            get:
              operationId: credentialState
              summary: The credential state of an Apple user (ASAuthorizationAppleIDProvider.credentialState).
              description: With `user`, the state of that Apple user identifier; without, of the signed-in account's Apple ID.
              parameters:
                - name: user
                  in: query
                  required: false
                  schema: { type: string, maxLength: 256 }
              responses:
                "200":
                  description: The state.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [state]
                        properties:
                          state: { type: string, enum: [authorized, revoked, notFound, transferred] }
                "401": { $ref: "#/components/responses/Error" }
          /api/events:
            get:
              operationId: events
              summary: Server-sent events for the signed-in session (credential revoked, session ended).
              description: |
                A `text/event-stream` that starts with `event: ready` (data `{"state": …}`: the Apple ID's
                credential state, `notFound` for a password account), sends a comment (`: keep-alive`) while
                idle, and ends after at most one of `event: credential-revoked` (data `{"state":
                "revoked"|"transferred"|"notFound", "user": "<sub>"}`: consent withdrawn, Apple ID deleted,
                refresh token refused, app transferred or account deleted) and `event: session-ended` (data
                `{}`: signed out or expired). Each stream reads the database about once a second, so any
                instance behind a load balancer reports what another applied. Streams also end on graceful
                shutdown and after an hour; reconnect.
              responses:
                "200":
                  description: The event stream.
                  content:
                    text/event-stream:
                      schema: { type: string }
                "401": { $ref: "#/components/responses/Error" }
          /auth/apple/native:
            get:
              operationId: nativeRelay
              summary: Sign in with Apple for clients without AuthenticationServices (open in a browser).
              description: |
                Runs the web flow with the client's `nonce` (the SHA-256 hex of a nonce from
                `POST /api/auth/nonce`) and a server-side `state`. When Apple answers, the browser is sent
                with `303 See Other` to `redirect_uri` with Apple's answer in the query:
                `code`, `id_token`, `user` (a JSON string, first authorization only) and the client's
                `state`; or `error` (e.g. `user_cancelled_authorize`) and `state`. The client then posts
                the credential to `POST /api/auth/apple`. `redirect_uri` must be
                `http://127.0.0.1:PORT/…` or `http://[::1]:PORT/…` (not `localhost`).
              parameters:
                - { name: redirect_uri, in: query, required: true, schema: { type: string, maxLength: 512 } }
                - { name: state, in: query, required: true, schema: { type: string, maxLength: 512 } }
                - { name: nonce, in: query, required: true, schema: { type: string, maxLength: 512 } }
              responses:
                "302":
                  description: To Apple's authorize page.
                "400":
                  description: "`invalid_redirect_uri` (not loopback) or `invalid_request`."
                  content:
                    application/json:
                      schema: { $ref: "#/components/schemas/Error" }
          /apple/notifications:
            post:
              operationId: appleNotification
              summary: Apple's server-to-server notifications.
              description: |
                Verified with Apple's keys (issuer, audience = a configured client id, lifetime),
                deduplicated on `jti` and applied in one transaction: `consent-revoked` and
                `account-delete`/`account-deleted` revoke the Apple ID and end its sessions;
                `email-disabled`/`email-enabled` record relay forwarding. Unknown types are recorded and ignored.
              requestBody:
                required: true
                content:
                  application/json:
                    schema:
                      type: object
                      required: [payload]
                      properties:
                        payload: { type: string, description: The notification JWT. }
              responses:
                "200":
                  description: Accepted (also for a repeated delivery).
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [status]
                        properties:
                          status: { type: string, enum: [applied, duplicate, ignored] }
                "400": { $ref: "#/components/responses/Error" }
                "503": { $ref: "#/components/responses/Error" }
          /openapi.yaml:
            get:
              operationId: openAPIDocument
              summary: This document.
              responses:
                "200":
                  description: OpenAPI 3.1 YAML.
                  content:
                    application/yaml:
                      schema: { type: string }
        components:
          securitySchemes:
            bearer:
              type: http
              scheme: bearer
            cookie:
              type: apiKey
              in: cookie
              name: juice_session
          responses:
            Error:
              description: An error.
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/Error" }
          schemas:
            Error:
              type: object
              required: [error, reason]
              properties:
                error: { type: string, description: A stable code, e.g. invalid_nonce. }
                reason: { type: string, description: For humans. }
            Nonce:
              type: object
              required: [nonce]
              properties:
                nonce: { type: string }
            AppleCredential:
              type: object
              required: [identityToken, nonce]
              properties:
                identityToken: { type: string }
                authorizationCode: { type: string }
                nonce: { type: string, description: The raw nonce from POST /api/auth/nonce. }
                fullName:
                  type: object
                  properties:
                    givenName: { type: [string, "null"] }
                    familyName: { type: [string, "null"] }
                email: { type: [string, "null"], description: Accepted; the identity token's email is the one stored. }
            Password:
              type: object
              required: [username, password]
              properties:
                username: { type: string, minLength: 3, maxLength: 64 }
                password: { type: string, minLength: 8 }
            SignIn:
              type: object
              required: [token, account]
              properties:
                token: { type: string }
                account: { $ref: "#/components/schemas/Account" }
            Account:
              type: object
              required: [id, name, isPrivateEmail]
              properties:
                id: { type: string }
                user: { type: [string, "null"], description: The Apple user identifier (sub). }
                name:
                  type: object
                  properties:
                    givenName: { type: [string, "null"] }
                    familyName: { type: [string, "null"] }
                email: { type: [string, "null"] }
                isPrivateEmail: { type: boolean }
                realUserStatus: { type: [string, "null"], enum: [unsupported, unknown, likelyReal, null] }
                username: { type: [string, "null"] }
        """#

    /// `GET /openapi.yaml`.
    static var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("/openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: yaml))
            )
        }
        return routes
    }
}
