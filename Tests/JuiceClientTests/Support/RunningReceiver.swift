import Foundation
import JuiceClient

/// Runs a ``LoopbackReceiver`` and, once it listens, `client` with its redirect URI; returns what
/// `receive` returned or threw, after both finished.
func runReceiver(
    _ receiver: LoopbackReceiver,
    client: @escaping @Sendable (URL) async throws -> Void
) async throws -> Result<LoopbackCallback, AuthorizationError> {
    let (addresses, sink) = AsyncStream.makeStream(of: URL.self)
    return try await withThrowingTaskGroup(of: Result<LoopbackCallback, AuthorizationError>?.self) { group in
        group.addTask {
            do throws(AuthorizationError) {
                return .success(try await receiver.receive { sink.yield($0) })
            } catch {
                return .failure(error)
            }
        }
        var iterator = addresses.makeAsyncIterator()
        guard let address = await iterator.next() else { throw CancellationError() }
        group.addTask {
            try await client(address)
            return nil
        }
        var outcome: Result<LoopbackCallback, AuthorizationError>?
        for try await result in group where result != nil { outcome = result }
        return outcome!
    }
}

extension Result {
    var success: Success? { if case .success(let value) = self { value } else { nil } }
    var failure: Failure? { if case .failure(let error) = self { error } else { nil } }
}

extension URL {
    var portNumber: Int { port ?? 0 }
    /// `http://127.0.0.1:PORT` without the path.
    var origin: String { "http://127.0.0.1:\(portNumber)" }
}
