import Synchronization

/// Carries the `error` code an endpoint answers back to ``RequestCaptureMiddleware``: `HTTPExchange.error`
/// records it in the slot of the request being captured (a task-local value, so nothing is shared
/// between requests).
final class CapturedErrorCode: Sendable {
    /// The slot of the request the current task is answering, when it is captured.
    @TaskLocal static var current: CapturedErrorCode?

    private let code = Mutex<String?>(nil)

    /// Records the error code answered.
    func record(_ code: String) {
        self.code.withLock { $0 = code }
    }

    /// The error code answered, if any.
    var value: String? { code.withLock { $0 } }
}
