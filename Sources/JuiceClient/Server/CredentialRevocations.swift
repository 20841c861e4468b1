import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Apple revoking a signed-in user's credential, as seen by a long-running client: what
/// `ASAuthorizationAppleIDProvider.credentialRevokedNotification` tells an app on Apple platforms.
public struct CredentialRevocation: Sendable, Hashable {
    /// The Apple user identifier whose credential is no longer authorized.
    public let user: String
    /// Its state now: ``CredentialState/revoked``, ``CredentialState/transferred`` or
    /// ``CredentialState/notFound`` (the account was deleted).
    public let state: CredentialState

    public init(user: String, state: CredentialState) {
        self.user = user
        self.state = state
    }
}

/// The credential revocations of the signed-in session, from the server's `GET /api/events`
/// (server-sent events), as an `AsyncSequence` for long-running clients.
///
/// The sequence yields a ``CredentialRevocation`` when the server reports one and then finishes;
/// it also finishes, without an element, when the session ends (signed out, expired). A dropped
/// connection is reopened with backoff (1 s doubling, at most 30 s); a server that refuses the session
/// (401) ends the sequence with a ``JuiceServerError`` — unless the session's Apple user was given and
/// its credential is no longer authorized, which is reported as the revocation.
///
/// ```swift
/// for try await revocation in JuiceServerAPI(baseURL: server).credentialRevocations(sessionToken: token) {
///     print("Apple revoked \(revocation.user): signing out")
///     try await store.removeSession(for: server)
/// }
/// ```
public struct CredentialRevocations: AsyncSequence, Sendable {
    public typealias Element = CredentialRevocation

    let server: JuiceServerAPI
    let sessionToken: String
    /// The session's Apple user, if known: a session refused because the revocation already ended it
    /// is then still reported as the revocation.
    let user: String?
    let maximumBackoff: Duration
    /// Called each time a stream is open and the server has said `ready` (it follows the session from then on).
    var onReady: @Sendable () -> Void = {}

    public func makeAsyncIterator() -> AsyncThrowingStream<CredentialRevocation, any Error>.Iterator {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: CredentialRevocation.self)
        let task = Task { [self] in
            do {
                if let revocation = try await follow() { continuation.yield(revocation) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream.makeAsyncIterator()
    }

    /// Reads the stream, reconnecting after transport failures, until it says something final.
    private func follow() async throws -> CredentialRevocation? {
        var backoff = Duration.seconds(1)
        while !Task.isCancelled {
            switch try await readOnce() {
            case .revoked(let revocation): return revocation
            case .sessionEnded: return nil
            case .dropped:
                try await Task.sleep(for: backoff)
                backoff = Swift.min(backoff * 2, maximumBackoff)
            case .connected:
                // The server ended a healthy stream (its time limit, a restart): reconnect after a pause,
                // so a server that keeps closing at once is not asked in a tight loop.
                backoff = .seconds(1)
                try await Task.sleep(for: backoff)
            }
        }
        return nil
    }

    private enum Outcome {
        case revoked(CredentialRevocation)
        case sessionEnded
        /// The connection could not be made or broke: try again.
        case dropped
        /// The stream ended without a final event (the server's time limit or shutdown): reconnect now.
        case connected
    }

    private func readOnce() async throws -> Outcome {
        var request = HTTPClientRequest(url: server.endpoint("api/events").absoluteString)
        request.headers.add(name: "Accept", value: "text/event-stream")
        request.headers.add(name: "Authorization", value: "Bearer \(sessionToken)")
        let response: HTTPClientResponse
        do {
            response = try await server.httpClient.execute(request, deadline: .distantFuture, logger: server.logger)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            server.logger.debug("event stream unreachable", metadata: ["error": "\(JuiceServerAPI.summary(of: error))"])
            return .dropped
        }
        guard response.status == .ok else {
            let body = (try? await response.body.collect(upTo: 64 * 1024)).map { Data($0.readableBytesView) } ?? Data()
            let error = JuiceServerAPI.error(status: Int(response.status.code), body: body)
            // Revoked while disconnected (or before the first connection): the revocation ended the session.
            if error.code == .unauthorized, let user, let state = try? await server.credentialState(forUserID: user), state != .authorized {
                return .revoked(CredentialRevocation(user: user, state: state))
            }
            throw error
        }
        var parser = ServerSentEventParser()
        do {
            for try await chunk in response.body {
                for event in parser.feed(chunk) {
                    switch event.name {
                    case "credential-revoked":
                        let object = (try? JSONSerialization.jsonObject(with: Data(event.data.utf8))) as? [String: Any]
                        guard let user = object?["user"] as? String, let state = (object?["state"] as? String).flatMap(CredentialState.init(name:))
                        else { throw JuiceServerError.unexpectedResponse(status: 200, "a credential-revoked event without user and state") }
                        return .revoked(CredentialRevocation(user: user, state: state))
                    case "session-ended":
                        return .sessionEnded
                    case "ready":
                        onReady()
                    default:
                        continue
                    }
                }
            }
        } catch let error as JuiceServerError {
            throw error
        } catch {
            if Task.isCancelled { throw CancellationError() }
            return .dropped
        }
        return .connected
    }
}

extension JuiceServerAPI {
    /// The credential revocations of the session `sessionToken`, from `GET /api/events`.
    ///
    /// - Parameter user: The session's Apple user identifier: when the server refuses the session
    ///   because a revocation already ended it (while disconnected), the sequence still yields that
    ///   revocation instead of failing with `unauthorized`.
    public func credentialRevocations(sessionToken: String, user: String? = nil, maximumBackoff: Duration = .seconds(30)) -> CredentialRevocations {
        CredentialRevocations(server: self, sessionToken: sessionToken, user: user, maximumBackoff: maximumBackoff)
    }
}
