import AsyncHTTPClient
import JuiceEncodings
import JuiceHTTP
import Logging
import NIOCore
import NIOHTTP1

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Calls Apple's REST endpoints: code exchange, refresh-token validation, revocation and app-transfer migration.
///
/// Each call signs (or reuses) a client secret for the client id it is made for. Calls that are safe
/// to repeat — refresh validation, revocation, migration — are retried on transient failures with
/// backoff; the code exchange never is, because a code is single use.
///
/// ```swift
/// let client = AppleIDClient(configuration: configuration, signer: try ClientSecretSigner(configuration: configuration))
/// let tokens = try await client.exchangeCode(code, clientID: "com.example.app.web", redirectURI: callbackURL)
/// // later, on account deletion:
/// try await client.revoke(tokens.refreshToken!, hint: .refreshToken, clientID: "com.example.app.web")
/// ```
public struct AppleIDClient: Sendable {
    /// Which kind of token is revoked.
    public enum TokenTypeHint: String, Sendable {
        case refreshToken = "refresh_token"
        case accessToken = "access_token"
    }

    /// Apple's base URL.
    public let baseURL: URL
    /// How idempotent calls are retried.
    public let retrySchedule: RetrySchedule
    /// The deadline for one HTTP request.
    public let timeout: Duration

    private let signer: ClientSecretSigner
    private let httpClient: HTTPClient
    private let logger: Logger
    /// `baseURL` as text without a trailing slash, computed once: every call appends its path to it.
    private let base: String

    /// The largest response body read.
    static let maximumBodySize = 1024 * 1024

    /// Creates a client.
    /// - Parameters:
    ///   - baseURL: Apple's base URL (or an emulator's).
    ///   - signer: Signs client secrets.
    ///   - httpClient: The process's HTTP client; it must not follow redirects. `nil` (the default): the
    ///     toolkit's process-wide client, which never does (a 3xx from Apple is an invalid answer).
    ///   - timeout: Deadline per request (10 s by default).
    ///   - retrySchedule: For idempotent calls.
    ///   - logger: Receives debug messages (never secrets).
    public init(
        baseURL: URL = AppleSignInConfiguration.appleBaseURL,
        signer: ClientSecretSigner,
        httpClient: HTTPClient? = nil,
        timeout: Duration = .seconds(10),
        retrySchedule: RetrySchedule = RetrySchedule(),
        logger: Logger = AppleSignInLogging.disabled
    ) {
        self.baseURL = baseURL
        self.base = baseURL.absoluteString.trimmingTrailingSlash
        self.signer = signer
        self.httpClient = httpClient ?? OutgoingHTTP.processClient
        self.timeout = timeout
        self.retrySchedule = retrySchedule
        self.logger = logger
    }

    /// Creates a client for a configuration's Apple base URL.
    public init(
        configuration: AppleSignInConfiguration, signer: ClientSecretSigner, httpClient: HTTPClient? = nil,
        logger: Logger = AppleSignInLogging.disabled
    ) {
        self.init(baseURL: configuration.appleBaseURL, signer: signer, httpClient: httpClient, logger: logger)
    }

    /// Exchanges an authorization code (`grant_type=authorization_code`). Never retried.
    /// - Parameters:
    ///   - code: The code from the authorization response or the device credential.
    ///   - clientID: The client the code was issued to (Services ID for web, bundle id for a device).
    ///   - redirectURI: The redirect URI of the authorization request; `nil` for codes from a device.
    public func exchangeCode(_ code: String, clientID: String, redirectURI: URL? = nil) async throws(AppleIDClientError) -> TokenResponse {
        var fields = [("grant_type", "authorization_code"), ("code", code)]
        if let redirectURI { fields.append(("redirect_uri", redirectURI.absoluteString)) }
        let json = try await postForm("auth/token", fields: fields, clientID: clientID, idempotent: false)
        return try TokenResponse(json: json)
    }

    /// Validates a refresh token (`grant_type=refresh_token`). `invalid_grant` means the user revoked
    /// consent or deleted their Apple ID (see ``AppleIDClientError/isInvalidGrant``).
    public func validateRefreshToken(_ refreshToken: String, clientID: String) async throws(AppleIDClientError) -> TokenResponse {
        let json = try await postForm(
            "auth/token", fields: [("grant_type", "refresh_token"), ("refresh_token", refreshToken)], clientID: clientID, idempotent: true)
        return try TokenResponse(json: json)
    }

    /// Revokes a token (`/auth/revoke`); Apple answers 200 for an already-invalid token too.
    public func revoke(_ token: String, hint: TokenTypeHint = .refreshToken, clientID: String) async throws(AppleIDClientError) {
        _ = try await postForm(
            "auth/revoke", fields: [("token", token), ("token_type_hint", hint.rawValue)], clientID: clientID, idempotent: true, expectsBody: false)
    }

    /// Gets an access token for user migration (`client_credentials`, `scope=user.migration`).
    public func migrationAccessToken(clientID: String) async throws(AppleIDClientError) -> TokenResponse {
        let json = try await postForm(
            "auth/token", fields: [("grant_type", "client_credentials"), ("scope", "user.migration")], clientID: clientID, idempotent: true)
        return try TokenResponse(json: json)
    }

    /// Sending team: turns one of its users' `sub` into a `transfer_sub` for `targetTeamID`.
    public func transferSubject(
        for subject: String, to targetTeamID: String, clientID: String, accessToken: String
    ) async throws(AppleIDClientError) -> String {
        let json = try await postForm(
            "auth/usermigrationinfo",
            fields: [("sub", subject), ("target", targetTeamID)],
            clientID: clientID,
            idempotent: true,
            bearer: accessToken
        )
        guard let transferSubject = json["transfer_sub"]?.stringValue, !transferSubject.isEmpty else {
            throw AppleIDClientError(.invalidResponse, "Apple's migration answer has no transfer_sub", status: 200)
        }
        return transferSubject
    }

    /// Receiving team: turns a `transfer_sub` into the user's `sub` (and email) in this team.
    public func migratedUser(
        forTransferSubject transferSubject: String, clientID: String, accessToken: String
    ) async throws(AppleIDClientError) -> MigratedUser {
        let json = try await postForm(
            "auth/usermigrationinfo",
            fields: [("transfer_sub", transferSubject)],
            clientID: clientID,
            idempotent: true,
            bearer: accessToken
        )
        guard let subject = json["sub"]?.stringValue, !subject.isEmpty else {
            throw AppleIDClientError(.invalidResponse, "Apple's migration answer has no sub", status: 200)
        }
        return MigratedUser(subject: subject, email: json["email"]?.stringValue, isPrivateEmail: json["is_private_email"]?.lenientBool)
    }

    // MARK: - Transport

    private func postForm(
        _ path: String,
        fields: [(String, String)],
        clientID: String,
        idempotent: Bool,
        bearer: String? = nil,
        expectsBody: Bool = true
    ) async throws(AppleIDClientError) -> JSONValue {
        let attempts = idempotent ? retrySchedule.maximumAttempts : 1
        var attempt = 1
        while true {
            do {
                return try await postOnce(path, fields: fields, clientID: clientID, bearer: bearer, expectsBody: expectsBody)
            } catch  where error.isTransient && attempt < attempts {
                attempt += 1
                logger.debug("retrying Apple call", metadata: ["path": "\(path)", "attempt": "\(attempt)", "error": "\(error.code)"])
                do {
                    try await Task.sleep(for: retrySchedule.backoff(beforeAttempt: attempt))
                } catch {
                    throw AppleIDClientError(.timeout, "cancelled while waiting to retry /\(path)")
                }
            }
        }
    }

    private func postOnce(
        _ path: String, fields: [(String, String)], clientID: String, bearer: String?, expectsBody: Bool
    ) async throws(AppleIDClientError) -> JSONValue {
        let secret: ClientSecret
        do {
            secret = try await signer.secret(for: clientID)
        } catch {
            throw AppleIDClientError(.clientSecret, error.reason)
        }
        let url = base + "/" + path
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        let body = FormURLEncoding.encode([("client_id", clientID), ("client_secret", secret.jwt)] + fields)
        request.body = .bytes(ByteBuffer(string: body))

        let started = ContinuousClock.now
        let response: BoundedResponse
        do {
            // One deadline for the whole exchange (head and body), a bounded body, no redirects.
            response = try await httpClient.boundedExecute(request, deadline: timeout, maximumBodySize: Self.maximumBodySize, logger: logger)
        } catch .deadlineExceeded, .connectTimeout {
            throw AppleIDClientError(.timeout, "Apple did not answer /\(path) within \(timeout)")
        } catch .bodyTooLarge(let status, let limit) {
            throw AppleIDClientError(.invalidResponse, "Apple's answer to /\(path) is over \(limit) bytes", status: status)
        } catch {
            throw AppleIDClientError(.unreachable, "could not reach Apple at /\(path): \(error)")
        }
        let bytes = response.body
        logger.debug("Apple call", metadata: ["path": "\(path)", "status": "\(response.status.code)", "elapsed": "\(ContinuousClock.now - started)"])
        let json = bytes.readableBytes == 0 ? nil : try? JSONParser.parse(Array(bytes.readableBytesView))

        guard response.status == .ok else {
            // A 5xx is Apple failing, whatever its body says (its outages answer `{"error": "server_error"}`):
            // transient, never a refusal of the code or token.
            if response.status.code >= 500 {
                let error = json?["error"]?.stringValue
                throw AppleIDClientError(
                    .invalidResponse, "Apple failed /\(path) with HTTP \(response.status.code)" + (error.map { " (\($0.prefix(100)))" } ?? ""),
                    appleError: error, appleErrorDescription: json?["error_description"]?.stringValue, status: Int(response.status.code))
            }
            if let error = json?["error"]?.stringValue {
                let description = json?["error_description"]?.stringValue
                throw AppleIDClientError(
                    .apple,
                    "Apple refused /\(path): \(error)" + (description.map { " (\($0.prefix(200)))" } ?? ""),
                    appleError: error,
                    appleErrorDescription: description,
                    status: Int(response.status.code)
                )
            }
            throw AppleIDClientError(.invalidResponse, "Apple answered /\(path) with HTTP \(response.status.code)", status: Int(response.status.code))
        }
        if !expectsBody { return .null }
        guard let json, case .object = json else {
            throw AppleIDClientError(.invalidResponse, "Apple's answer to /\(path) is not a JSON object", status: 200)
        }
        return json
    }
}
