import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension SpawnedChild {
    /// What a program run to its end gave.
    package struct Completed: Sendable {
        package let exit: Exit
        package let output: [UInt8]
        package let error: [UInt8]
        /// It was still running at the deadline and was killed (``exit`` is then `SIGKILL`).
        package let timedOut: Bool

        /// Standard output as UTF-8 text (invalid bytes replaced).
        package var outputText: String { String(decoding: output, as: UTF8.self) }
        /// Standard error as UTF-8 text (invalid bytes replaced).
        package var errorText: String { String(decoding: error, as: UTF8.self) }
    }

    /// Runs `executable` with `arguments` and `input` on its standard input to its end, collecting its
    /// output; still running after `deadline`, it is killed and the result says so.
    package static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        input: [UInt8] = [], deadline: Duration
    ) async throws(SpawnError) -> Completed {
        let child = try start(executable, arguments, environment: environment, directory: directory)
        guard let pipes = child.pipes else { throw SpawnError(reason: "a child started with pipes has none") }
        async let output = readToEnd(pipes.output)
        async let error = readToEnd(pipes.error)
        child.finishInput(input)
        let killer = Task { () -> Bool in
            do { try await Task.sleep(for: deadline) } catch { return false }
            child.send(SIGKILL)
            return true
        }
        let exit = await child.wait()
        killer.cancel()
        let timedOut = await killer.value
        return Completed(exit: exit, output: await output, error: await error, timedOut: timedOut)
    }

    /// The first executable named `program` in `path`'s directories (`$PATH` when `nil`).
    package static func locate(_ program: String, path: String? = nil) -> String? {
        let directories = (path ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        return directories.lazy.map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
