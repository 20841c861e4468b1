import AsyncHTTPClient
import Logging
import NIOCore
import NIOHTTP1

extension HTTPClient {
    /// Sends `request` and reads its whole answer, head and body, within `deadline`, reading at most
    /// `maximumBodySize` bytes of body.
    ///
    /// AsyncHTTPClient's own deadline stops at the response head: a peer that answers at once and then
    /// trickles its body a byte at a time would hold the caller for as long as it liked (issue 40). Here
    /// the exchange races a timer in a task group; whichever ends first cancels the other, which closes
    /// the connection.
    ///
    /// - Throws: ``OutgoingHTTPFailure``: ``OutgoingHTTPFailure/deadlineExceeded(_:)``,
    ///   ``OutgoingHTTPFailure/bodyTooLarge(status:limit:)``, or the transport's failure.
    package func boundedExecute(
        _ request: HTTPClientRequest, deadline: Duration, maximumBodySize: Int, logger: Logger? = nil
    ) async throws(OutgoingHTTPFailure) -> BoundedResponse {
        let outcome = await withTaskGroup(of: Result<BoundedResponse, OutgoingHTTPFailure>?.self) { group in
            group.addTask {
                do {
                    let response = try await self.execute(request, timeout: TimeAmount(deadline), logger: logger)
                    let body: ByteBuffer
                    do {
                        body = try await response.body.collect(upTo: maximumBodySize)
                    } catch is NIOTooManyBytesError {
                        return .failure(.bodyTooLarge(status: Int(response.status.code), limit: maximumBodySize))
                    }
                    return .success(BoundedResponse(status: response.status, headers: response.headers, body: body))
                } catch {
                    return .failure(OutgoingHTTPFailure.classify(error, deadline: deadline))
                }
            }
            group.addTask {
                do {
                    try await _Concurrency.Task.sleep(for: deadline)
                } catch {
                    return nil  // cancelled: the exchange ended first, or the caller was cancelled
                }
                return .failure(.deadlineExceeded(deadline))
            }
            var first: Result<BoundedResponse, OutgoingHTTPFailure>? = nil
            while let next = await group.next() {
                if let next {
                    first = next
                    break
                }
            }
            group.cancelAll()
            return first ?? .failure(.cancelled)
        }
        return try outcome.get()
    }
}
