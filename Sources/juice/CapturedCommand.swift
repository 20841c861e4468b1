import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program found on `PATH` to its end and returns its exit status and standard output
/// (standard input and error on `/dev/null`), killing it past a deadline.
///
/// This is `posix_spawnp(3)` with an empty signal mask and default dispositions rather than
/// Foundation's `Process`: a child inherits the blocked signals of the thread that starts it, and
/// `openssl speed` times each test with `SIGALRM` — started through `Process` from this CLI, the alarm
/// stayed blocked and it never stopped.
enum CapturedCommand {
    /// What a run gave: the exit status (`nil` when a signal ended it, the deadline's included) and
    /// standard output.
    struct Outcome: Sendable {
        let status: Int32?
        let output: String
    }

    /// Runs `program` with `arguments` (never through a shell) on a thread of its own; `nil` when it
    /// cannot be started.
    static func run(_ program: String, _ arguments: [String], deadline: Duration) async -> Outcome? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: runBlocking(program, arguments, deadline: deadline)) }
        }
    }

    private static func runBlocking(_ program: String, _ arguments: [String], deadline: Duration) -> Outcome? {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        defer { close(readEnd) }
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
            var attributes: posix_spawnattr_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var every = sigset_t()
        sigfillset(&every)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &every)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([program] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let started = posix_spawnp(&pid, program, &actions, &attributes, argv + [nil], environ)
        close(writeEnd)
        guard started == 0 else { return nil }
        let output = drain(readEnd, until: ContinuousClock.now + deadline, orKill: pid)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exited = status & 0x7f == 0
        return Outcome(status: exited ? (status >> 8) & 0xff : nil, output: String(decoding: output, as: UTF8.self))
    }

    /// Everything written to `descriptor` until it closes (at most 1 MiB kept); `pid` is killed once
    /// `deadline` passes.
    private static func drain(_ descriptor: Int32, until deadline: ContinuousClock.Instant, orKill pid: pid_t) -> [UInt8] {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var killed = false
        while true {
            let left = deadline - ContinuousClock.now
            if left <= .zero, !killed {
                kill(pid, SIGKILL)
                killed = true
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds =
                killed ? 1000 : Int32(clamping: max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            if ready <= 0 {
                if killed { return output }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return output }
            if output.count < 1 << 20 { output.append(contentsOf: buffer[..<count]) }
        }
    }
}
