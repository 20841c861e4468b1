import AppleSignIn
import Foundation
import JuiceEncodings
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// What the connections of one ``LoopbackReceiver/receive(onListening:)`` share: the rules a request
/// must meet, the claim the first acceptable request takes, the open connections (closed when the
/// receiver finishes), and where the accepted callback goes.
final class LoopbackExchange: Sendable {
    let path: String
    let maximumRequestSize: Int
    let logger: Logger
    private let sink: AsyncStream<LoopbackCallback>.Continuation

    private struct State {
        var port = 0
        var claimed = false
        var finished = false
        var connections: [ObjectIdentifier: any Channel] = [:]
    }

    private let state = Mutex(State())

    init(path: String, maximumRequestSize: Int, logger: Logger, sink: AsyncStream<LoopbackCallback>.Continuation) {
        self.path = path
        self.maximumRequestSize = maximumRequestSize
        self.logger = logger
        self.sink = sink
    }

    /// The port listened on (for the `Host` check).
    var port: Int {
        get { state.withLock { $0.port } }
        set { state.withLock { $0.port = newValue } }
    }

    /// Records an open connection; `false` when the receiver has finished and it must be closed.
    func register(_ connection: any Channel) -> Bool {
        state.withLock { state in
            guard !state.finished else { return false }
            state.connections[ObjectIdentifier(connection)] = connection
            return true
        }
    }

    /// Forgets a closed connection.
    func unregister(_ connection: any Channel) {
        _ = state.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    /// Takes the one-shot claim; `false` when another request already took it.
    func claim() -> Bool {
        state.withLock { state in
            defer { state.claimed = true }
            return !state.claimed && !state.finished
        }
    }

    /// Hands the accepted callback to the receiver.
    func deliver(_ callback: LoopbackCallback) {
        sink.yield(callback)
        sink.finish()
    }

    /// Ends the exchange: later connections are refused; returns the open ones, to be closed.
    func finish() -> [any Channel] {
        sink.finish()
        return state.withLock { state in
            state.finished = true
            defer { state.connections.removeAll() }
            return Array(state.connections.values)
        }
    }

    /// An answer to a request that does not end the wait.
    struct Refusal: Error {
        let status: HTTPResponseStatus
        let message: String
    }

    /// Refuses a request head that cannot be the response of the sign-in.
    func check(_ head: HTTPRequestHead) throws(Refusal) {
        guard head.uri.utf8.count <= maximumRequestSize else { throw Refusal(status: .uriTooLong, message: "The request target is too long.") }
        let port = self.port
        let host = head.headers["host"]
        guard host.count == 1, host[0] == "127.0.0.1:\(port)" || host[0] == "localhost:\(port)" else {
            throw Refusal(status: .misdirectedRequest, message: "This listener answers only http://127.0.0.1:\(port).")
        }
        guard requestPath(head.uri) == path else { throw Refusal(status: .notFound, message: "Not found.") }
        guard head.method == .GET || head.method == .POST else {
            throw Refusal(status: .methodNotAllowed, message: "Only GET and POST are accepted.")
        }
        if let length = head.headers["content-length"].first.flatMap({ Int($0) }), length > maximumRequestSize {
            throw Refusal(status: .payloadTooLarge, message: "The request is too large.")
        }
        if head.method == .POST {
            guard MediaType.essence(of: head.headers["content-type"].first) == "application/x-www-form-urlencoded" else {
                throw Refusal(status: .unsupportedMediaType, message: "Only application/x-www-form-urlencoded is accepted.")
            }
        }
    }

    /// The parameters of an acceptable request.
    func callback(_ head: HTTPRequestHead, body: ByteBuffer) throws(Refusal) -> LoopbackCallback {
        let encoded: String?
        if head.method == .POST {
            encoded = String(validating: body.readableBytesView, as: UTF8.self)
        } else {
            encoded = head.uri.firstIndex(of: "?").map { String(head.uri[head.uri.index(after: $0)...]) } ?? ""
        }
        guard let encoded, let fields = FormURLEncoding.decode(encoded) else {
            throw Refusal(status: .badRequest, message: "The parameters are not valid form-urlencoded UTF-8.")
        }
        return LoopbackCallback(method: head.method.rawValue, parameters: fields.map { .init(name: $0.0, value: $0.1) })
    }

    private func requestPath(_ uri: String) -> Substring {
        uri[..<(uri.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? uri.endIndex)]
    }

    /// The page the browser shows once the response is in.
    static let page = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Juice</title>
        <style>body{font:17px -apple-system,system-ui,sans-serif;margin:4em auto;max-width:32em;text-align:center;color:#1d1d1f}</style>
        </head><body><h1>You can close this window</h1><p>Juice received the answer from Sign in with Apple. Return to your terminal or app.</p></body></html>

        """
}
