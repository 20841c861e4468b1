import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A write lock (`fcntl` record lock) on one byte of a file, held by this process against other
/// processes. Record locks belong to the process: they never conflict within it and go away when it
/// exits, however it exits. The file stays open for the life of the process (closing it drops its locks).
package struct ProcessLock: Sendable {
    private let descriptor: Int32

    /// Opens (creating, 0600) the lock file at `path`.
    package init(path: String) {
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    }

    /// Whether this process now holds byte `byte` (always, when the file could not be opened).
    package func claim(byte: Int) -> Bool {
        guard descriptor >= 0 else { return true }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(byte)
        lock.l_len = 1
        return fcntl(descriptor, F_SETLK, &lock) == 0
    }
}
