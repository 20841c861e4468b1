import Foundation
import Hummingbird
import Synchronization

/// A real HTTP endpoint serving a JWKS document that the test can change, break and count.
final class JWKSServer: Sendable {
    private struct State {
        var document: String
        var cacheControl: String?
        var failing = false
        var fetches = 0
    }

    private let state: Mutex<State>

    init(document: String, cacheControl: String? = nil) {
        state = Mutex(State(document: document, cacheControl: cacheControl))
    }

    var fetches: Int { state.withLock { $0.fetches } }

    func serve(_ document: String) { state.withLock { $0.document = document } }
    func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }

    var router: Router<BasicRequestContext> {
        let router = Router()
        router.get("auth/keys") { _, _ -> Response in
            let (document, cacheControl, failing) = self.state.withLock { state in
                state.fetches += 1
                return (state.document, state.cacheControl, state.failing)
            }
            if failing { return Response(status: .serviceUnavailable) }
            var headers: HTTPFields = [.contentType: "application/json"]
            if let cacheControl { headers[.cacheControl] = cacheControl }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: document)))
        }
        return router
    }
}
