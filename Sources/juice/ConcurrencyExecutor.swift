import Foundation
import NIOCore
import NIOPosix

/// Where `juice serve` and `juice emulator` run Swift concurrency's jobs: on NIO's event loops
/// (`NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`) rather
/// than on the cooperative pool beside them.
///
/// A request's handler, its HTTP client calls and its responses then resume on the event loop whose
/// I/O woke them instead of crossing to another thread and back — on two cores those hand-offs cost more
/// than the sign-in's own work (docs/performance.md). Nothing in these servers blocks a thread (bcrypt runs
/// on NIO's thread pool, SQLite on the store's own thread). `JUICE_CONCURRENCY_ON_EVENT_LOOPS=0` keeps the
/// default executor (to compare, or should a platform refuse the hook).
enum ConcurrencyExecutor {
    /// The subcommands that run servers.
    static let serverCommands: Set<String> = ["serve", "emulator"]

    /// Whether `arguments` (the process's, program name first) and `environment` ask for the event loops.
    static func wantsEventLoops(arguments: [String], environment: [String: String]) -> Bool {
        guard arguments.count > 1, serverCommands.contains(arguments[1]) else { return false }
        return environment["JUICE_CONCURRENCY_ON_EVENT_LOOPS"] != "0"
    }

    /// Installs the event loops as the global executor when ``wantsEventLoops(arguments:environment:)``
    /// says so; call once, first thing in `main`.
    static func installIfWanted() {
        guard wantsEventLoops(arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment) else { return }
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
