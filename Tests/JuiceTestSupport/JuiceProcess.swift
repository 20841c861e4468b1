import Foundation
import JuiceInfrastructure

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the built `juice` executable as a child process, as a script would.
package enum JuiceProcess {
    /// How a run ended and what it printed.
    package struct Result: Sendable {
        package var status: Int32
        package var stdout: String
        package var stderr: String
    }

    /// The `juice` binary next to the test bundle (`.build/debug/juice`).
    package static var executable: URL {
        let candidates = [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        for directory in candidates {
            for base in [directory, directory.deletingLastPathComponent()] {
                let url = base.appendingPathComponent("juice")
                if FileManager.default.isExecutableFile(atPath: url.path) { return url }
            }
        }
        fatalError("the juice executable was not built next to the tests (looked in \(candidates.map(\.path)))")
    }

    /// The package root, for fixtures under `Examples/`.
    package static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs `juice` with `arguments` (and `stdin`; `environment` replaces the inherited one when
    /// given), collecting its output; a run that has not ended after `timeout` is killed and reported
    /// as an error, so a stuck child fails its test instead of stalling the suite. The child is a
    /// ``SpawnedChild``; its output is read, and its end awaited, on threads of their own, never
    /// blocking a cooperative one.
    package static func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String]? = nil, timeout: Duration = .seconds(60)
    ) async throws -> Result {
        let child = try SpawnedChild.start(executable.path, arguments, environment: environment)
        async let out = SpawnedChild.readToEnd(child.output)
        async let err = SpawnedChild.readToEnd(child.error)
        child.finishInput(Array((stdin ?? "").utf8))
        let deadline = Task {
            try await Task.sleep(for: timeout)
            kill(child.pid, SIGKILL)
        }
        let ended = await child.wait()
        deadline.cancel()
        let result = Result(
            status: ended.exitStatus ?? ended.signal ?? -1, stdout: String(decoding: await out, as: UTF8.self),
            stderr: String(decoding: await err, as: UTF8.self))
        if ended.signal == SIGKILL {
            throw TimedOut(arguments: arguments, stderr: result.stderr)
        }
        return result
    }

    /// A child that had to be stopped.
    package struct TimedOut: Error, CustomStringConvertible {
        package let arguments: [String]
        package let stderr: String
        package var description: String {
            "juice \(arguments.joined(separator: " ")) did not finish in time and was stopped; stderr: \(stderr.suffix(2000))"
        }
    }
}

/// Reads a pipe to its end on a Dispatch thread.
package final class PipeReader: Sendable {
    private let done: Task<Data, Never>

    package init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        let (stream, continuation) = AsyncStream<Data>.makeStream()
        DispatchQueue.global().async {
            continuation.yield(handle.readDataToEndOfFile())
            continuation.finish()
        }
        done = Task {
            var data = Data()
            for await chunk in stream { data.append(chunk) }
            return data
        }
    }

    package func text() async -> String { String(decoding: await done.value, as: UTF8.self) }
}

extension Process {
    /// Stops the child: SIGTERM, up to `grace` for it to exit, then SIGKILL; waits for it to be gone.
    /// Bounded, so a child that ignores SIGTERM cannot stall the suite.
    package func stop(grace: TimeInterval = 10) {
        guard isRunning else { return }
        terminate()
        let deadline = Date().addingTimeInterval(grace)
        while isRunning && Date() < deadline { usleep(20_000) }
        if isRunning { kill(processIdentifier, SIGKILL) }
        waitUntilExit()
    }
}
