import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// CPU time (user and system) of the benchmark's own process and, when `--server-pid` names it, of the
/// server's, read around the timed phase only: what a run spends collecting credentials, signing up or
/// asking for options before the clock starts is not a sign-in's cost.
struct BenchCPUTime: Sendable, Equatable {
    /// This process's CPU time.
    var driver: Duration
    /// The server process's, when one is watched and its `/proc` entry could be read.
    var server: Duration?

    /// The process whose CPU time is read beside the driver's (`juice bench signin --server-pid`); set for
    /// a whole run with `$serverProcessID.withValue`.
    @TaskLocal static var serverProcessID: Int32?

    /// Now.
    static func now() -> BenchCPUTime {
        BenchCPUTime(driver: ownCPUTime(), server: serverProcessID.flatMap(processCPUTime))
    }

    /// The time spent from `start` to `self`; the server's only when both readings have it.
    func since(_ start: BenchCPUTime) -> BenchCPUTime {
        BenchCPUTime(driver: driver - start.driver, server: server.flatMap { end in start.server.map { end - $0 } })
    }

    private static func ownCPUTime() -> Duration {
        var usage = rusage()
        #if canImport(Glibc)
            let who = RUSAGE_SELF.rawValue  // an enum in glibc's headers
        #else
            let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return .zero }
        func duration(_ time: timeval) -> Duration { .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec)) }
        return duration(usage.ru_utime) + duration(usage.ru_stime)
    }

    /// User and system time of process `pid` from `/proc/PID/stat` (fields 14 and 15, in clock ticks);
    /// `nil` when it cannot be read (no such process, or not Linux).
    static func processCPUTime(_ pid: Int32) -> Duration? {
        guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let ticks = ticks(fromStat: stat)
        else { return nil }
        let ticksPerSecond = Int64(sysconf(Int32(_SC_CLK_TCK)))
        guard ticksPerSecond > 0, ticks <= Int64.max / 1_000_000 else { return nil }
        return .microseconds(ticks * 1_000_000 / ticksPerSecond)
    }

    /// User plus system clock ticks from a `/proc/PID/stat` line. The command name (field 2) is in
    /// parentheses and may hold spaces and parentheses itself, so fields are counted after its last `)`:
    /// the first of those is field 3, so fields 14 and 15 are the 12th and 13th.
    static func ticks(fromStat stat: String) -> Int64? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int64(fields[11]), let system = Int64(fields[12]), user >= 0, system >= 0,
            user <= Int64.max - system
        else { return nil }
        return user + system
    }
}
