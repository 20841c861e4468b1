import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Loopback ports free at the time of asking, from a range (a server's
/// port must be known before it starts when its URL is registered elsewhere, e.g. at the emulator).
///
/// Every test target runs in the one test process and takes its ports from one pool (``FreePort``),
/// below the kernel's ephemeral range (32768–60999 on Linux) so that no outgoing connection takes one
/// between picking and binding. Ports are handed out in turn, never the same one twice in a run, so two tests
/// picking at the same moment cannot get the same port.
///
/// Test runs may also overlap (two `swift test` at once, on a developer's machine): each process
/// claims every port it hands out with a lock on that port's byte of one shared file, held until the
/// process exits, and skips a port another process holds. So a server that a test restarts on its
/// port finds it still free, though another run marches through the same range.
package final class PortPool: Sendable {
    private let range: Range<Int>
    private let next: Mutex<Int>

    /// A pool over `range`, starting at a random place in its first half.
    package init(range: Range<Int>) {
        self.range = range
        self.next = Mutex(range.lowerBound + Int.random(in: 0..<max(1, range.count / 2)))
    }

    /// The next port of the range that is free now.
    package func pick() throws -> Int {
        for _ in 0..<range.count {
            let candidate = next.withLock { next in
                defer { next = next + 1 < range.upperBound ? next + 1 : range.lowerBound }
                return next
            }
            if Self.isFree(candidate), PortClaims.claim(candidate) { return candidate }
        }
        throw POSIXError(.EADDRINUSE)
    }

    /// Binds `port` on 127.0.0.1 and releases it: whether it is free now.
    private static func isFree(_ port: Int) -> Bool {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return bound == 0
    }
}

/// Ports claimed by this process against other test processes: a ``ProcessLock`` on byte `port` of
/// one file in the temporary directory.
private enum PortClaims {
    private static let lock = ProcessLock(path: (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/juice-test-ports.lock")

    /// Whether this process now holds `port` (always, when the lock file cannot be opened).
    static func claim(_ port: Int) -> Bool {
        lock.claim(byte: port)
    }
}
