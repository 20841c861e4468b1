import Foundation
import JuiceTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sends raw bytes to 127.0.0.1:`port` and returns what comes back until the peer closes: for requests
/// no well-behaved HTTP client would send. `nil` when the connection is refused.
///
/// The blocking socket calls run on a thread of their own, never on the concurrency pool the receiver
/// under test needs (it has as many threads as cores: two on CI).
func rawExchange(port: Int, _ request: [UInt8]) async -> String? {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: blockingExchange(port: port, request)) }.start()
    }
}

private func blockingExchange(port: Int, _ request: [UInt8]) -> String? {
    guard let descriptor = LoopbackSocket.connected(toPort: port) else { return nil }
    defer { close(descriptor) }
    _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var answer = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        answer += buffer[..<count]
    }
    return String(decoding: answer, as: UTF8.self)
}

/// A connection to 127.0.0.1:`port` that sends nothing, as a stalling attacker would.
final class IdleConnection: Sendable {
    private let descriptor: Int32

    init(port: Int) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    func close() { _ = Glibc.close(descriptor) }
}

func socketOpenedAndLeftIdle(port: Int) -> IdleConnection { IdleConnection(port: port) }
