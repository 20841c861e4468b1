import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh directory of the test's own under the system's temporary directory (mode 0700: tests put
/// private keys and databases in it), removed by ``remove()``; ``with(_:_:)`` removes it however the
/// body ends.
package struct TemporaryDirectory: Sendable {
    package let url: URL

    /// Creates `juice-<label>-<uuid>`.
    package init(_ label: String = "tests") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("juice-\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    package var path: String { url.path }

    package func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes `contents` to `name` with mode 0600 (a private key, a secret) and returns its URL.
    @discardableResult
    package func writePrivate(_ name: String, _ contents: String) throws -> URL {
        let url = file(name)
        guard FileManager.default.createFile(atPath: url.path, contents: Data(contents.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        return url
    }

    /// Writes an executable shell script `name` with `body` and returns its path.
    ///
    /// Written through a close-on-exec descriptor: a program another test starts at that moment must
    /// not inherit the file open for writing, or running the script fails with "text file busy".
    package func script(_ name: String, _ body: String) throws -> String {
        let path = file(name).path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        let bytes = Array(("#!/bin/sh\n" + body + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        return path
    }

    package func remove() { try? FileManager.default.removeItem(at: url) }

    /// Runs `body` with a fresh directory and removes it afterwards.
    package static func with<T>(_ label: String = "tests", _ body: (TemporaryDirectory) async throws -> T) async throws -> T {
        let directory = try TemporaryDirectory(label)
        return try await withCleanup({ try await body(directory) }, cleanup: { directory.remove() })
    }
}
