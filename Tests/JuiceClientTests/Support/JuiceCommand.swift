import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the built `juice` binary's client commands as a person would at a shell: with its own
/// `$JUICE_HOME` and `$BROWSER`, standard input from a string (never a terminal), a bounded run time.
struct JuiceCommand: Sendable {
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    let home: URL
    let browser: String

    /// The `juice` binary built next to the tests.
    static var executable: URL {
        let candidates = [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        for directory in candidates {
            for base in [directory, directory.deletingLastPathComponent()]
            where FileManager.default.isExecutableFile(atPath: base.appendingPathComponent("juice").path) {
                return base.appendingPathComponent("juice")
            }
        }
        fatalError("the juice executable was not built next to the tests (looked in \(candidates.map(\.path)))")
    }

    /// Runs `juice arguments…`; a run still going after `timeout` is killed and reported.
    func run(_ arguments: [String], stdin: String = "", timeout: Duration = .seconds(90)) async throws -> Result {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = ["JUICE_HOME": home.path, "BROWSER": browser, "PATH": "/usr/bin:/bin", "HOME": home.path]
        let output = Pipe()
        let error = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = input
        let ended = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in ended.continuation.finish() }
        try process.run()
        let out = Self.readAll(output)
        let err = Self.readAll(error)
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let deadline = Task {
            try await Task.sleep(for: timeout)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        for await _ in ended.stream {}
        deadline.cancel()
        let result = Result(status: process.terminationStatus, stdout: await out.value, stderr: await err.value)
        if process.terminationReason == .uncaughtSignal {
            throw Killed(arguments: arguments, stderr: result.stderr)
        }
        return result
    }

    private static func readAll(_ pipe: Pipe) -> Task<String, Never> {
        let handle = pipe.fileHandleForReading
        let (stream, continuation) = AsyncStream<Data>.makeStream()
        DispatchQueue.global().async {
            continuation.yield(handle.readDataToEndOfFile())
            continuation.finish()
        }
        return Task {
            var data = Data()
            for await chunk in stream { data.append(chunk) }
            return String(decoding: data, as: UTF8.self)
        }
    }

    struct Killed: Error, CustomStringConvertible {
        let arguments: [String]
        let stderr: String
        var description: String { "juice \(arguments.joined(separator: " ")) did not finish in time; stderr: \(stderr.suffix(1000))" }
    }
}
