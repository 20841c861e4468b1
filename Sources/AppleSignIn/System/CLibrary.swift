#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the toolkit takes from the C library, in one place: FoundationEssentials has neither a fast byte
/// search nor the text of a system error.
enum CLibrary {
    /// The index of the first `byte` in `bytes` at or after `start` (`memchr`: a token is scanned for its
    /// dots on every verification).
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start >= 0, start < bytes.count, let base = bytes.baseAddress else { return nil }
        guard let found = memchr(base + start, Int32(byte), bytes.count - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The system's text for a POSIX error ("No such file or directory"), as `strerror` gives it.
    static func message(for error: POSIXError) -> String {
        String(cString: strerror(error.code.rawValue))
    }
}
