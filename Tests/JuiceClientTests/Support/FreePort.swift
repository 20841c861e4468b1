import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback port free at the time of asking (the server's port must be known before it starts,
/// because its callback URL is registered at the emulator).
enum FreePort {
    /// A free port below the kernel's ephemeral range (32768–60999 on Linux), so that an outgoing
    /// connection of this or another process cannot take it between picking and binding; falls back
    /// to one the kernel picks.
    static func pick() throws -> Int {
        for _ in 0..<64 {
            let candidate = Int.random(in: 20_000..<32_000)
            if (try? reserve(candidate)) != nil { return candidate }
        }
        return try reserve(0)
    }

    /// Binds `port` (0: any) on 127.0.0.1, releases it, returns the port bound.
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
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
