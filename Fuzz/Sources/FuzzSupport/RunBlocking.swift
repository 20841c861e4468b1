import Dispatch
import Synchronization

/// Runs `operation` to completion from synchronous code: libFuzzer calls its target synchronously, and
/// the toolkit's public verifiers are `async`. Fuzz harness only; never in the product.
public func runBlocking<T: Sendable>(_ operation: @escaping @Sendable () async -> T) -> T {
    let slot = ResultSlot<T>()
    let done = DispatchSemaphore(value: 0)
    // An unstructured task is the only bridge from a synchronous C callback into async code; the
    // semaphore makes the caller wait for it, so it never outlives the call.
    Task {
        slot.store(await operation())
        done.signal()
    }
    done.wait()
    guard let value = slot.take() else { fatalError("runBlocking: the operation finished without a result") }
    return value
}

/// The value an operation produced, handed from its task to the waiting thread.
final class ResultSlot<T: Sendable>: Sendable {
    private let value = Mutex<T?>(nil)

    func store(_ result: T) { value.withLock { $0 = result } }
    func take() -> T? { value.withLock { $0 } }
}
