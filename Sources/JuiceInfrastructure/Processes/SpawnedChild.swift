import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process started with `posix_spawn(3)`: standard input, output and error on pipes, an
/// empty signal mask and default signal dispositions, and no other descriptor of this process (on
/// glibc 2.34 and later; the rest are opened close-on-exec anyway).
///
/// Not Foundation's `Process`, for two reasons met here: a child inherits the blocked signals of the
/// thread that starts it, and `openssl speed` times each test with `SIGALRM` — started through
/// `Process` from the CLI, the alarm stayed blocked and it never stopped; and with many children
/// started at once, `Process.run()` crashed the whole test run inside its own `memmove`, twice in a
/// row, with every launch serialized.
package struct SpawnedChild: Sendable {
    package let pid: pid_t
    /// The write end of its standard input.
    package let input: Int32
    /// The read ends of its standard output and error.
    package let output: Int32
    package let error: Int32

    /// Starts `executable` with `arguments`; `environment` replaces the inherited one when given.
    package static func start(_ executable: String, _ arguments: [String], environment: [String: String]?) throws -> SpawnedChild {
        var ends: [[Int32]] = [[-1, -1], [-1, -1], [-1, -1]]
        for index in ends.indices {
            guard pipe(&ends[index]) == 0 else { throw SpawnError(reason: "pipe failed: errno \(errno)") }
            // Close-on-exec (pipe2 is not in Swift's Glibc): another child started meanwhile must not keep them.
            for end in ends[index] { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0][0], 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1][1], 1)
        posix_spawn_file_actions_adddup2(&actions, ends[2][1], 2)
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var every = sigset_t()
        sigfillset(&every)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &every)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } }
        defer {
            argv.forEach { free($0) }
            envp?.forEach { free($0) }
        }
        var pid = pid_t()
        let started =
            if let envp {
                posix_spawn(&pid, executable, &actions, &attributes, argv + [nil], envp + [nil])
            } else {
                posix_spawn(&pid, executable, &actions, &attributes, argv + [nil], environ)
            }
        close(ends[0][0])
        close(ends[1][1])
        close(ends[2][1])
        guard started == 0 else {
            [ends[0][1], ends[1][0], ends[2][0]].forEach { close($0) }
            throw SpawnError(reason: "posix_spawn \(executable) failed: errno \(started)")
        }
        return SpawnedChild(pid: pid, input: ends[0][1], output: ends[1][0], error: ends[2][0])
    }

    /// Writes `data` to its standard input and closes it.
    package func finishInput(_ data: [UInt8]) {
        var offset = 0
        while offset < data.count {
            let written = data[offset...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { break }
            offset += written
        }
        close(input)
    }

    /// Everything written to `descriptor` until it closes, read on a thread of its own; closes it.
    package static func readToEnd(_ descriptor: Int32) async -> [UInt8] {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var data: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 16_384)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    data.append(contentsOf: buffer[..<count])
                }
                close(descriptor)
                continuation.resume(returning: data)
            }
        }
    }

    /// Waits for it to end, on a thread of its own: its exit status, or the signal that ended it.
    package func wait() async -> (exitStatus: Int32?, signal: Int32?) {
        let pid = pid
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                let signal = status & 0x7f
                continuation.resume(returning: signal == 0 ? ((status >> 8) & 0xff, nil) : (nil, signal))
            }
        }
    }

    /// A child that could not be started.
    package struct SpawnError: Error, CustomStringConvertible {
        package let reason: String
        package var description: String { reason }
    }
}
