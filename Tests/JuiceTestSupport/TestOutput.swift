import Foundation

/// Where tests leave files for people to read (browser screenshots and logs, conformance reports):
/// `test-output/` in the repository, or, while another test process holds that folder,
/// `test-output/concurrent-<pid>/`, so that two runs at once never delete or overwrite each other's
/// files (a concurrent run once removed the popup test's browser log while that test was reading it).
///
/// The folder belongs to the process holding the ``ProcessLock`` on `test-output/.lock`.
package enum TestOutput {
    /// This process's output folder.
    package static let base: URL = {
        let shared = BrowserTools.repository.appendingPathComponent("test-output", isDirectory: true)
        try? FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        if ProcessLock(path: shared.appendingPathComponent(".lock").path).claim(byte: 0) { return shared }
        return shared.appendingPathComponent("concurrent-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
    }()
}
