import Crypto
import Foundation
import JuiceProcesses
import JuiceTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// What the real Python backends (Django's, Flask's) share: the environment that points them at the kit, their
/// log under `test-output/conformance/`, and a server child waited for until it listens, stopped afterwards.
enum PythonBackendProcess {
    /// Runs `body` with a directory of its own (removed afterwards) and the environment every backend reads:
    /// Apple's base URL (the kit's port), the team, the key id and the team key's file (0600, in that directory).
    static func withEnvironment<T: Sendable>(
        applePort: Int, teamID: String, keyID: String, teamKey: P256.Signing.PrivateKey, extra: [String: String] = [:],
        _ body: (TemporaryDirectory, [String: String]) async throws -> T
    ) async throws -> T {
        let directory = try TemporaryDirectory("python-backend")
        defer { directory.remove() }
        let keyFile = try directory.writePrivate("team-key.pem", teamKey.pemRepresentation)
        var environment = ProcessInfo.processInfo.environment.merging(extra) { _, new in new }
        environment["APPLE_URL"] = "http://127.0.0.1:\(applePort)"
        environment["TEAM_ID"] = teamID
        environment["KEY_ID"] = keyID
        environment["TEAM_KEY_FILE"] = keyFile.path
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        return try await body(directory, environment)
    }

    /// An empty `test-output/conformance/<name>.log`.
    static func log(_ name: String) throws -> URL {
        let log = TestOutput.base.appendingPathComponent("conformance/\(name).log")
        try FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        return log
    }

    /// `python3 arguments…` in `directory`, its output appended to `log`.
    static func start(_ arguments: [String], environment: [String: String], directory: String, log: URL) throws -> SpawnedChild {
        try SpawnedChild.start(
            BrowserTools.python ?? "/usr/bin/python3", arguments, environment: environment, directory: directory, standardIO: .file(log.path))
    }

    /// Waits (at most 60 s) until `server` listens on `port`, runs `body`, then stops the server.
    static func whileListening<T: Sendable>(
        _ server: SpawnedChild, name: String, port: Int, log: URL, _ body: @Sendable () async throws -> T
    ) async throws -> T {
        try await withCleanup {
            try await eventually("\(name) listening on \(port)", timeout: .seconds(60)) {
                guard server.isRunning else { throw Failure(reason: "\(name) exited; see \(log.path)") }
                guard let socket = LoopbackSocket.connected(toPort: port) else { return false }
                close(socket)
                return true
            }
            return try await body()
        } cleanup: {
            await server.stop(grace: .seconds(10))
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }
}
