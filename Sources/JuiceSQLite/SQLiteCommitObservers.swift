internal import CSQLite3
import Synchronization

/// The closures a ``SQLiteHandle`` calls from SQLite's commit hook.
final class SQLiteCommitObservers: Sendable {
    private let observers = Mutex<[@Sendable () -> Void]>([])

    /// Adds `observer`, installing the hook on `connection` with the first one. The connection's owner
    /// keeps this object alive as long as the connection.
    func add(_ observer: @escaping @Sendable () -> Void, on connection: OpaquePointer) {
        let first = observers.withLock { observers in
            observers.append(observer)
            return observers.count == 1
        }
        guard first else { return }
        let hook: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
            guard let context else { return 0 }
            Unmanaged<SQLiteCommitObservers>.fromOpaque(context).takeUnretainedValue().notify()
            return 0  // 0: the commit goes ahead
        }
        sqlite3_commit_hook(connection, hook, Unmanaged.passUnretained(self).toOpaque())
    }

    private func notify() {
        observers.withLock { $0 }.forEach { $0() }
    }
}
