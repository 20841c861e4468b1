import NIOPosix

/// Runs Swift tasks on a ``NIOThreadPool``'s threads: the executor a ``SQLiteStore`` call runs on.
///
/// SQLite blocks the thread it runs on, and the store's statements run at once on the caller's thread
/// (``SQLiteHandleDatabase``). A call that prefers this executor (`withTaskExecutorPreference`) runs
/// on the pool's own thread, so a whole transaction — `BEGIN`, its statements, `COMMIT` — runs on the
/// store's thread, off Swift's cooperative pool, and crosses threads only on the way in and out.
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
