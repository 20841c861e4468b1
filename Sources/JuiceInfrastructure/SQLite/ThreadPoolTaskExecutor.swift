import NIOPosix

/// Runs Swift tasks on a ``NIOThreadPool``'s threads: the executor a ``SQLiteStore`` call runs on.
///
/// sqlite-nio runs every statement on the connection's thread pool. A call that awaits its
/// statements from the cooperative pool crosses threads twice per statement (there and back);
/// a call that prefers this executor (`withTaskExecutorPreference`) resumes on the pool's own thread,
/// so a whole transaction — `BEGIN`, its statements, `COMMIT` — runs on one thread and crosses only on
/// the way in and out.
///
/// Once the pool has stopped, jobs go to the global concurrent executor rather than being dropped
/// (the store, closed by then, refuses the call with ``SQLiteStoreClosed``).
final class ThreadPoolTaskExecutor: TaskExecutor {
    private let pool: NIOThreadPool

    /// An executor on `pool` (which must be started).
    init(pool: NIOThreadPool) {
        self.pool = pool
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        pool.submit { state in
            switch state {
            case .active:
                job.runSynchronously(on: executor)
            case .cancelled:
                globalConcurrentExecutor.enqueue(job)
            }
        }
    }
}
