import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback port the kernel picked (`bind` to port 0) and that stays taken until the kit's own
/// server has bound it: `juice conformance --port 0`.
///
/// The kit's URLs (its issuer, its discovery document, the client secrets' audience) name its port
/// before its server starts, so the port is chosen first. The reservation is a bound socket that never
/// listens, with `SO_REUSEADDR` as the kit's server sets it: the server may bind the same port (Linux
/// allows that while no socket listens on it), while any other `bind` to port 0 is given a different
/// port, so parallel runs never collide the way a port found free and released would.
final class KitPortReservation: Sendable {
    /// The reserved port.
    let port: Int
    private let descriptor: Mutex<Int32>

    /// Reserves a free port on 127.0.0.1.
    init() throws {
        #if canImport(Glibc)
            let socketType = Int32(SOCK_STREAM.rawValue)
        #else
            let socketType = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, socketType, 0)
        guard descriptor >= 0 else { throw CLIError("juice conformance: cannot open a socket to reserve a port (errno \(errno))") }
        var reuse: Int32 = 1
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound =
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size)) == 0
            && withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
                }
            }
        guard bound else {
            let code = errno
            close(descriptor)
            throw CLIError("juice conformance: cannot reserve a port on 127.0.0.1 (errno \(code))")
        }
        self.descriptor = Mutex(descriptor)
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Gives the port up (once the kit's server listens on it). Idempotent.
    func release() {
        descriptor.withLock { open in
            if open >= 0 {
                close(open)
                open = -1
            }
        }
    }

    deinit {
        release()
    }
}
