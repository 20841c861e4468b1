import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension SpawnedChild {
    /// Writes `data` to its standard input and closes it (nothing when it was not started with pipes).
    package func finishInput(_ data: [UInt8]) {
        guard let input = pipes?.input else { return }
        var offset = 0
        while offset < data.count {
            let written = data[offset...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { break }
            offset += written
        }
        close(input)
    }

    /// Everything written to `descriptor` until it closes, read on a thread of its own; closes it.
    package static func readToEnd(_ descriptor: Int32) async -> [UInt8] {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var data: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 16_384)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    data.append(contentsOf: buffer[..<count])
                }
                close(descriptor)
                continuation.resume(returning: data)
            }
        }
    }
}
