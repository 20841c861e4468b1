import NIOCore
import NIOHTTP1

/// A complete answer to an outgoing request: its head and its whole body, read within the request's
/// deadline and size limit.
package struct BoundedResponse: Sendable {
    /// The HTTP status (a 3xx included: redirects are answers, never followed).
    package let status: HTTPResponseStatus
    /// The response headers.
    package let headers: HTTPHeaders
    /// The whole body.
    package let body: ByteBuffer

    package init(status: HTTPResponseStatus, headers: HTTPHeaders, body: ByteBuffer) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
