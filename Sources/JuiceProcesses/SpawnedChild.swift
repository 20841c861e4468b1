import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process started with `posix_spawn(3)`: the one way this project starts a program, from the
/// CLI, the client (a browser) and the tests alike.
///
/// Every child gets an empty signal mask and default signal dispositions, no descriptor of this process
/// but its standard ones (glibc 2.34 and later; the rest are opened close-on-exec anyway), its arguments
/// as they are (never through a shell's parser), and a thread of its own that reaps it the moment it
/// exits, so it never lingers as a zombie and ``exit`` tells at once whether it still runs.
///
/// Not Foundation's `Process`, for what it did here: a child inherits the blocked signals of the thread
/// that starts it (`openssl speed` times each test with `SIGALRM`, which stayed blocked, and it never
/// stopped); `Process.run()` crashed the whole test run inside its own `memmove`, twice in a row, with
/// every launch serialized; and it closes its handles with a `try!` that traps on `EINTR`.
///
/// ```swift
/// let child = try SpawnedChild.start("/usr/bin/openssl", ["version"])
/// let output = await SpawnedChild.readToEnd(child.pipes!.output)
/// let exit = await child.wait()
/// ```
package final class SpawnedChild: Sendable {
    /// How a child ended.
    package enum Exit: Sendable, Equatable {
        /// It returned from `main` or called `exit` with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)

        /// The exit status, `nil` when a signal ended it.
        package var status: Int32? { if case .exited(let status) = self { status } else { nil } }
        /// The signal that ended it, `nil` when it exited.
        package var signal: Int32? { if case .signalled(let signal) = self { signal } else { nil } }
    }

    /// Where its standard input, output and error go.
    package enum StandardIO: Sendable {
        /// Three pipes, their other ends in ``SpawnedChild/pipes``.
        case pipes
        /// Input from `/dev/null`; output and error appended to the file at this path (created 0644 if missing).
        case file(String)
        /// All three on `/dev/null`.
        case null
    }

    /// Our ends of its standard input, output and error, when started with ``StandardIO/pipes``.
    package struct Pipes: Sendable {
        /// The write end of its standard input.
        package let input: Int32
        /// The read end of its standard output.
        package let output: Int32
        /// The read end of its standard error.
        package let error: Int32
    }

    package let pid: pid_t
    package let pipes: Pipes?
    private let state = Mutex(State())

    private struct State {
        var exit: Exit?
        var waiters: [CheckedContinuation<Exit, Never>] = []
    }

    private init(pid: pid_t, pipes: Pipes?) {
        self.pid = pid
        self.pipes = pipes
    }

    /// How it ended, or `nil` while it runs.
    package var exit: Exit? { state.withLock { $0.exit } }

    /// Whether it still runs.
    package var isRunning: Bool { exit == nil }

    /// Starts `executable` (a path) with `arguments`. `environment` replaces the inherited one when given;
    /// `directory` is its working directory when given.
    /// - Throws: ``SpawnError`` when a pipe, the file, the directory or the program cannot be had.
    package static func start(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        standardIO: StandardIO = .pipes
    ) throws(SpawnError) -> SpawnedChild {
        var plan = try SpawnPlan(standardIO)
        defer { plan.release() }
        if let directory { try plan.changeDirectory(to: directory) }
        let pid = try plan.spawn(executable, arguments, environment: environment)
        let child = SpawnedChild(pid: pid, pipes: plan.ourEnds())
        child.reapWhenItExits()
        return child
    }

    /// Starts `executable` and leaves it running on its own, its standard input, output and error on
    /// `/dev/null` (a browser, say); `false` when it cannot be started.
    package static func startDetached(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) -> Bool {
        (try? start(executable, arguments, environment: environment, standardIO: .null)) != nil
    }

    /// Waits for it to end, without blocking a cooperative thread.
    package func wait() async -> Exit {
        await withCheckedContinuation { continuation in
            let ended: Exit? = state.withLock { state in
                if let exit = state.exit { return exit }
                state.waiters.append(continuation)
                return nil
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }

    /// Sends `signal` while it runs (never to a pid the system may have handed to another process since).
    package func send(_ signal: Int32) {
        state.withLock { state in
            if state.exit == nil { kill(pid, signal) }
        }
    }

    /// Stops it: `SIGTERM`, up to `grace` to exit, then `SIGKILL`; returns once it is gone. Bounded, so a
    /// child that ignores `SIGTERM` cannot stall its caller.
    @discardableResult
    package func stop(grace: Duration = .seconds(10)) async -> Exit {
        if let exit { return exit }
        send(SIGTERM)
        let killer = Task {
            try await Task.sleep(for: grace)
            send(SIGKILL)
        }
        let exit = await wait()
        killer.cancel()
        return exit
    }

    /// A thread of its own blocks in `waitpid` until the child exits, records how, and wakes the waiters.
    private func reapWhenItExits() {
        let pid = pid
        Thread.detachNewThread { [self] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            let signal = status & 0x7f
            let exit: Exit = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
            let waiters = state.withLock { state in
                state.exit = exit
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: exit) }
        }
    }
}
