import AsyncHTTPClient
import Foundation
import JuiceHTTP
import NIOCore
import NIOHTTP1

/// `juice conformance --wait-for-backend SECONDS`: once the kit listens (and has printed its ready
/// line), the first case waits until the backend is configured with the kit's URL — its start path
/// redirects to the kit's `/auth/authorize` (a GET start), or it answers below 500 (a POST start page,
/// an API-only backend's native endpoint) — or until the deadline passes; then the run goes on and its
/// own start check reports a backend that is still not ready, in its own words.
///
/// The backend is a separate program started after the kit (it needs the kit's URL), so its state is
/// asked for again every `interval` until the deadline: there is no signal to wait on.
struct KitBackendWait {
    let backend: String
    /// The path asked: the start path, or the native endpoint of an API-only backend.
    let path: String
    /// Whether only a redirect to the kit's `/auth/authorize` counts (a GET start).
    let expectsRedirect: Bool
    let deadline: Duration
    var interval: Duration = .milliseconds(100)

    /// Returns once the backend is ready, or when the deadline passed.
    func wait(kitURL: String) async {
        let client = OutgoingHTTP.makeClient { $0.timeout.connect = .seconds(2) }
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        while clock.now < end, !Task.isCancelled {
            if await ready(client, kitURL: kitURL) { break }
            try? await Task.sleep(for: interval)
        }
        try? await client.shutdown()
    }

    private func ready(_ client: HTTPClient, kitURL: String) async -> Bool {
        var request = HTTPClientRequest(url: backend + path)
        request.method = expectsRedirect ? .GET : .HEAD
        // One deadline for head and body, and a body limit, as every outgoing request (OutgoingHTTPPolicyTests).
        guard let answer = try? await client.boundedExecute(request, deadline: .seconds(5), maximumBodySize: 1 << 20) else { return false }
        if expectsRedirect {
            let location = answer.headers.first(name: "location") ?? ""
            return (300..<400).contains(Int(answer.status.code)) && location.hasPrefix(kitURL + "/auth/authorize")
        }
        return answer.status.code < 500
    }
}
