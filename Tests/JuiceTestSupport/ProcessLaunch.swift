import Foundation
import Synchronization

/// Starts `process`, one launch at a time across the test run.
///
/// Foundation's `Process.run()` on Linux is not safe to call from several threads at once
/// (swift-corelibs-foundation issues 4772, 4795 and 4810). The parallel test run crashed inside it twice
/// in one day: a `try!` on an interrupted `close(2)`, and a bad pointer in its `memcpy`. Every test that
/// starts a program goes through here. A launch takes milliseconds, so running them one after the other
/// costs nothing measurable.
package func launch(_ process: Process) throws {
    try launches.withLock { _ in try process.run() }
}

private let launches = Mutex(())
