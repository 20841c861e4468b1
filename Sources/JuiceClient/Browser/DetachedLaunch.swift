import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a program and leaves it running, its standard input, output and error on `/dev/null` and
/// none of this process's other descriptors open in it (on Linux); a thread of its own reaps it when
/// it exits, so it never lingers as a zombie.
///
/// This is `posix_spawn(3)` rather than Foundation's `Process`: on Linux, `Process.run()` closes its
/// file handles with a `try!`, which traps when `close(2)` is interrupted by a signal (`EINTR`); a
/// test run hit it once while many child processes were exiting.
enum DetachedLaunch {
    /// Starts `executable` with `arguments` (passed as they are, never through a shell's parser) and
    /// `environment`; `false` when it cannot be started.
    static func start(_ executable: String, _ arguments: [String], environment: [String: String]) -> Bool {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        guard posix_spawn_file_actions_init(&actions) == 0 else { return false }
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in 0...2 {
            guard posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0) == 0 else {
                return false
            }
        }
        #if canImport(Glibc)
            guard closeTheRest(&actions) else { return false }
        #endif
        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let started = posix_spawn(&pid, executable, &actions, nil, argv + [nil], envp + [nil])
        guard started == 0 else { return false }
        let child = pid
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        }
        return true
    }

    #if canImport(Glibc)
        /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module
        /// does not declare.
        private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

        /// Adds an action closing every descriptor from 3 up. Without it, a browser (which may run for
        /// hours) would keep what the CLI had open without close-on-exec: NIO's epoll descriptors, its
        /// sockets, the loopback callback's listener among them, which then stays bound after the CLI exits.
        private static func closeTheRest(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>) -> Bool {
            if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
                return unsafeBitCast(symbol, to: AddCloseFrom.self)(actions, 3) == 0
            }
            // An older glibc: one close action per descriptor open now (one closed meanwhile is ignored).
            let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
            return open.filter { $0 > 2 }.allSatisfy { posix_spawn_file_actions_addclose(actions, $0) == 0 }
        }
    #endif
}
