/// Polls `condition` every `interval` until it gives a value or `timeout` passes; `nil` then.
package func eventually<T>(
    timeout: Duration = .seconds(10), interval: Duration = .milliseconds(10), _ condition: () async throws -> T?
) async throws -> T? {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if let value = try await condition() { return value }
        try await Task.sleep(for: interval)
    }
    // Once more at the deadline: on a loaded machine the sleep above can end long after it, and what
    // was awaited may have come meanwhile (a child that wrote its file while this task waited for a thread).
    return try await condition()
}

/// Waits until `condition` holds, failing with a message naming `what` after `timeout`.
package func eventually(_ what: String, timeout: Duration = .seconds(15), _ condition: () async throws -> Bool) async throws {
    let held: Bool? = try await eventually(timeout: timeout, interval: .milliseconds(20)) { try await condition() ? true : nil }
    guard held == nil else { return }
    struct Timeout: Error, CustomStringConvertible { let description: String }
    throw Timeout(description: "timed out waiting for: \(what)")
}
