import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback port free at the time of asking (the server's port must be known before it starts,
/// because its callback URL is registered at the emulator).
///
/// Every test target runs in the one test process, so each target takes ports from a range of its
/// own (AppleSignInConformanceTests 18000–19999, JuiceServerTests 20000–24999, JuiceClientTests 25000–28499, JuiceCLITests 28500–31999), below the kernel's ephemeral range (32768–60999 on Linux) so that no outgoing
/// connection takes one between picking and binding, and hands them out in turn, never the same port
/// twice in a run: two tests picking at the same moment cannot get the same port.
enum FreePort {
    static let range = 18_000..<20_000
    private static let next = Mutex(range.lowerBound + Int.random(in: 0..<(range.count / 2)))

    static func pick() throws -> Int {
        for _ in 0..<range.count {
            let candidate = next.withLock { next in
                defer { next = next + 1 < range.upperBound ? next + 1 : range.lowerBound }
                return next
            }
            if (try? reserve(candidate)) != nil { return candidate }
        }
        throw POSIXError(.EADDRINUSE)
    }

    /// Binds `port` on 127.0.0.1 and releases it: whether it is free now.
    private static func reserve(_ port: Int) throws -> Int {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
        return port
    }
}
