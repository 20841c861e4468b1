import Foundation
import JuiceInfrastructure

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program to its end (a ``SpawnedChild``: an empty signal mask, so `openssl speed`'s
/// `SIGALRM` reaches it) and returns its exit status and standard output; killed past a deadline.
enum CapturedCommand {
    /// What a run gave: the exit status (`nil` when a signal ended it, the deadline's included) and
    /// standard output.
    struct Outcome: Sendable {
        let status: Int32?
        let output: String
    }

    /// Runs `executable` (a path) with `arguments`, never through a shell; `nil` when it cannot be started.
    static func run(_ executable: String, _ arguments: [String], deadline: Duration) async -> Outcome? {
        guard let child = try? SpawnedChild.start(executable, arguments, environment: nil) else { return nil }
        child.finishInput([])
        async let output = SpawnedChild.readToEnd(child.output)
        async let error = SpawnedChild.readToEnd(child.error)
        let stopper = Task {
            try await Task.sleep(for: deadline)
            kill(child.pid, SIGKILL)
        }
        let ended = await child.wait()
        stopper.cancel()
        _ = await error
        return Outcome(status: ended.exitStatus, output: String(decoding: await output, as: UTF8.self))
    }

    /// The first executable named `program` in `PATH`'s directories.
    static func locate(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
