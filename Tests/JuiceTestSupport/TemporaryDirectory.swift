import Foundation

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("juice-client-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var path: String { url.path }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes an executable shell script `name` with `body` and returns its path.
    func script(_ name: String, _ body: String) throws -> String {
        let path = file(name).path
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// Runs `body` with a fresh directory and removes it afterwards.
    static func with<T>(_ body: (TemporaryDirectory) async throws -> T) async throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        return try await body(directory)
    }
}

/// Polls `condition` until it holds or `timeout` passes.
func eventually<T>(timeout: Duration = .seconds(10), _ condition: () async throws -> T?) async throws -> T? {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if let value = try await condition() { return value }
        try await Task.sleep(for: .milliseconds(10))
    }
    return nil
}
