import Foundation
import JuiceProcesses

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
        let run = try await SpawnedChild.run(
            executable.path, arguments, environment: environment, input: Array((stdin ?? "").utf8), deadline: timeout)
        let result = Result(status: run.exit.status ?? run.exit.signal ?? -1, stdout: run.outputText, stderr: run.errorText)
        if run.timedOut {
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
