import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files that hold secrets (a team's .p8 key, the refresh-token key): created with mode 0600,
/// never following or replacing an existing file.
package enum OwnerOnlyFile {
    /// Creates `url` with mode 0600 and writes `contents`.
    /// - Returns: `nil` on success, else what went wrong, ready to follow the path in a message
    ///   ("already exists; …", "cannot be created (…)", "could not be written"); never the contents.
    package static func create(_ url: URL, contents: String) -> String? {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            return errno == EEXIST
                ? "already exists; choose another file or remove it first" : "cannot be created (\(String(cString: strerror(errno))))"
        }
        defer { close(descriptor) }
        _ = fchmod(descriptor, 0o600)
        let bytes = Array(contents.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard result > 0 else { return "could not be written" }
            written += result
        }
        return nil
    }
}
