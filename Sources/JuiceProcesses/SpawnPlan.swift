import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `posix_spawn` file actions and attributes of one child, and the pipes made for it.
struct SpawnPlan {
    #if canImport(Darwin)
        private var actions: posix_spawn_file_actions_t? = nil
        private var attributes: posix_spawnattr_t? = nil
    #else
        private var actions = posix_spawn_file_actions_t()
        private var attributes = posix_spawnattr_t()
    #endif
    /// `[read, write]` of standard input, output and error, when they are pipes.
    private var ends: [[Int32]] = []

    init(_ standardIO: SpawnedChild.StandardIO) throws(SpawnError) {
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        switch standardIO {
        case .pipes:
            for _ in 0..<3 {
                var pair: [Int32] = [-1, -1]
                guard pipe(&pair) == 0 else {
                    release()
                    throw SpawnError(reason: "pipe failed: errno \(errno)")
                }
                // Close-on-exec (pipe2 is not in Swift's Glibc): another child started meanwhile must not keep them.
                for end in pair { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
                ends.append(pair)
            }
            posix_spawn_file_actions_adddup2(&actions, ends[0][0], 0)
            posix_spawn_file_actions_adddup2(&actions, ends[1][1], 1)
            posix_spawn_file_actions_adddup2(&actions, ends[2][1], 2)
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .null:
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        #if canImport(Glibc)
            // glibc 2.34's posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc does not declare.
            if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
                typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
                _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
            }
        #endif
        var none = sigset_t()
        sigemptyset(&none)
        var every = sigset_t()
        sigfillset(&every)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &every)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    }

    /// Makes `directory` the child's working directory (glibc 2.29's `posix_spawn_file_actions_addchdir_np`).
    mutating func changeDirectory(to directory: String) throws(SpawnError) {
        #if canImport(Glibc)
            guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else {
                throw SpawnError(reason: "this C library cannot start a child in another directory")
            }
            typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
            let added = directory.withCString { unsafeBitCast(symbol, to: AddChdir.self)(&actions, $0) }
            guard added == 0 else { throw SpawnError(reason: "cannot start a child in \(directory): errno \(added)") }
        #else
            throw SpawnError(reason: "starting a child in another directory is implemented for glibc only")
        #endif
    }

    /// Spawns the child and closes its ends of the pipes here.
    mutating func spawn(_ executable: String, _ arguments: [String], environment: [String: String]?) throws(SpawnError) -> pid_t {
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
        if ends.count == 3 { [ends[0][0], ends[1][1], ends[2][1]].forEach { close($0) } }
        guard started == 0 else {
            if ends.count == 3 { [ends[0][1], ends[1][0], ends[2][0]].forEach { close($0) } }
            throw SpawnError(reason: "cannot start \(executable): errno \(started)")
        }
        return pid
    }

    /// This process's ends of the pipes, after ``spawn(_:_:environment:)``.
    func ourEnds() -> SpawnedChild.Pipes? {
        ends.count == 3 ? SpawnedChild.Pipes(input: ends[0][1], output: ends[1][0], error: ends[2][0]) : nil
    }

    /// Frees the actions and attributes (the pipes belong to the child and its handle by then).
    mutating func release() {
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
    }
}
