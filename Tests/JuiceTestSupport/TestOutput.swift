import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where tests leave files for people to read (browser screenshots and logs, conformance reports):
/// `test-output/` in the repository, or, while another test process holds that folder,
/// `test-output/concurrent-<pid>/`, so that two runs at once never delete or overwrite each other's
/// files (a concurrent run once removed the popup test's browser log while that test was reading it).
///
/// The folder belongs to the process holding a write lock (`fcntl` record lock) on `test-output/.lock`;
/// the lock goes when that process exits, however it exits.
package enum TestOutput {
    /// The folder `name` under this process's output folder, created.
    package static func directory(_ name: String) throws -> URL {
        let url = base.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// This process's output folder.
    package static let base: URL = {
        let shared = BrowserTools.repository.appendingPathComponent("test-output", isDirectory: true)
        try? FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        let descriptor = open(shared.appendingPathComponent(".lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 1
        // The descriptor stays open for the life of the process: closing it would drop the lock.
        if descriptor < 0 || fcntl(descriptor, F_SETLK, &lock) == 0 { return shared }
        return shared.appendingPathComponent("concurrent-\(getpid())", isDirectory: true)
    }()
}
