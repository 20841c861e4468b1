import Foundation

/// Waits until `condition` holds (polling every 20 ms), failing after `timeout`.
func eventually(_ what: String, timeout: Duration = .seconds(15), _ condition: @Sendable () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    struct Timeout: Error, CustomStringConvertible { let description: String }
    throw Timeout(description: "timed out waiting for: \(what)")
}
