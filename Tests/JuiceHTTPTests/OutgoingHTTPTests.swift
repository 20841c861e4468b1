import AsyncHTTPClient
import JuiceTestSupport
import NIOCore
import NIOHTTP1
import Testing

@testable import JuiceHTTP

/// The outgoing client never follows a redirect, and an exchange is bounded by one deadline (head and
/// body) and a body size limit (issue 40), against real sockets that misbehave.
@Suite("Outgoing HTTP: no redirects, one deadline, a body limit")
struct OutgoingHTTPTests {
    static func post(_ url: String) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.body = .bytes(ByteBuffer(string: #"{"payload": "signed"}"#))
        return request
    }

    @Test("a 307 and a 302 are answers: the client re-sends nothing to the Location")
    func redirectsAreAnswers() async throws {
        let client = OutgoingHTTP.makeClient()
        _ = try await withCleanup {
            try await ScriptedHTTPServer.with(.plain(status: 200)) { sink in
                for status in [307, 302, 301, 308] {
                    try await ScriptedHTTPServer.with(.redirect(status: status, location: sink.url("/sink"))) { redirecting in
                        let answer = try await client.boundedExecute(
                            Self.post(redirecting.url("/notify")), deadline: .seconds(30), maximumBodySize: 1024)
                        #expect(Int(answer.status.code) == status)
                        #expect(redirecting.requests == 1)
                    }
                }
                #expect(sink.requests == 0, "a redirect was followed")
            }
        } cleanup: {
            try? await client.shutdown()
        }
    }

    @Test("a client adjusted to follow redirects still does not")
    func adjustedClientStillRefuses() async throws {
        let client = OutgoingHTTP.makeClient { $0.redirectConfiguration = .follow(max: 5, allowCycles: false) }
        _ = try await withCleanup {
            try await ScriptedHTTPServer.with(.plain(status: 200)) { sink in
                try await ScriptedHTTPServer.with(.redirect(location: sink.url("/sink"))) { redirecting in
                    let answer = try await client.boundedExecute(Self.post(redirecting.url()), deadline: .seconds(30), maximumBodySize: 1024)
                    #expect(answer.status.code == 307)
                }
                #expect(sink.requests == 0)
            }
        } cleanup: {
            try? await client.shutdown()
        }
    }

    @Test("a 200 whose chunked body trickles a byte at a time ends at the deadline, not at the last byte")
    func tricklingBodyHitsTheDeadline() async throws {
        let client = OutgoingHTTP.makeClient()
        _ = try await withCleanup {
            try await ScriptedHTTPServer.with(.trickle(interval: .milliseconds(50))) { trickling in
                await #expect(throws: OutgoingHTTPFailure.deadlineExceeded(.milliseconds(500))) {
                    _ = try await client.boundedExecute(Self.post(trickling.url()), deadline: .milliseconds(500), maximumBodySize: 1 << 20)
                }
            }
        } cleanup: {
            try? await client.shutdown()
        }
    }

    @Test("a body over the limit is not read: the status and the limit are reported")
    func bodyOverTheLimit() async throws {
        let client = OutgoingHTTP.makeClient()
        _ = try await withCleanup {
            try await ScriptedHTTPServer.with(.large(size: 100_000)) { large in
                await #expect(throws: OutgoingHTTPFailure.bodyTooLarge(status: 200, limit: 65_536)) {
                    _ = try await client.boundedExecute(Self.post(large.url()), deadline: .seconds(30), maximumBodySize: 65_536)
                }
            }
        } cleanup: {
            try? await client.shutdown()
        }
    }

    @Test("a refused connection is described plainly, with balanced parentheses")
    func refusedConnection() async throws {
        let closed = try await ScriptedHTTPServer.with(.plain(status: 200)) { $0.url() }
        let client = OutgoingHTTP.makeClient()
        _ = try await withCleanup {
            do {
                _ = try await client.boundedExecute(Self.post(closed), deadline: .seconds(30), maximumBodySize: 1024)
                Issue.record("a closed port answered")
            } catch let error as OutgoingHTTPFailure {
                #expect(error == .connectionRefused, "\(error)")
                #expect(error.description == "connection refused")
            }
        } cleanup: {
            try? await client.shutdown()
        }
    }
}
