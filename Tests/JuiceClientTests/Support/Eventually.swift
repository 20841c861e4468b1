import Foundation

/// Polls `condition` until it holds or `timeout` passes.
func eventually<T>(timeout: Duration = .seconds(10), _ condition: () async throws -> T?) async throws -> T? {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if let value = try await condition() { return value }
        try await Task.sleep(for: .milliseconds(10))
    }
    return nil
}
