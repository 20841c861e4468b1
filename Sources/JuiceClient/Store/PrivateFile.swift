import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file only its owner can read (0600) in a directory only its owner can enter (0700), replaced
/// atomically: the new content goes to a temporary file in the same directory, is flushed to disk, and
/// is renamed over the old one, so a reader sees the old file or the new one, never a mix.
struct PrivateFile: Sendable {
    /// The file's location.
    let url: URL

    /// The largest file read; anything bigger is not a file this store wrote.
    static let maximumSize = 1 << 20

    /// The content, or `nil` when the file does not exist.
    func load() throws(CredentialStoreError) -> Data? {
        let path = url.path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .io("cannot read \(path): \(Self.lastError())")
        }
        defer { close(descriptor) }
        var content = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io("cannot read \(path): \(Self.lastError())")
            }
            if count == 0 { break }
            content += chunk[..<count]
            guard content.count <= Self.maximumSize else { throw .corrupt("\(path) is larger than \(Self.maximumSize) bytes") }
        }
        return Data(content)
    }

    /// Replaces the content atomically, creating the directory (0700) when needed; the file is 0600.
    func replace(with data: Data) throws(CredentialStoreError) {
        let directory = url.deletingLastPathComponent()
        try Self.makeDirectory(directory)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UInt64.random(in: .min ... .max)).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io("cannot create a file in \(directory.path): \(Self.lastError())") }
        var written = 0
        let failure: String? = data.withUnsafeBytes { bytes in
            guard fchmod(descriptor, 0o600) == 0 else { return Self.lastError() }
            while written < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return Self.lastError()
                }
                written += count
            }
            return fsync(descriptor) == 0 ? nil : Self.lastError()
        }
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw .io("cannot write \(url.path): \(failure)")
        }
        guard rename(temporary, url.path) == 0 else {
            let failure = Self.lastError()
            unlink(temporary)
            throw .io("cannot replace \(url.path): \(failure)")
        }
        Self.syncDirectory(directory)
    }

    /// Runs `body` holding an exclusive advisory lock (`flock`) on `.<name>.lock` beside the file (0600),
    /// so a read-modify-write by another process (another `juice` run) waits instead of losing an update.
    func withLock<T>(_ body: () throws(CredentialStoreError) -> T) throws(CredentialStoreError) -> T {
        let directory = url.deletingLastPathComponent()
        try Self.makeDirectory(directory)
        let path = directory.appendingPathComponent(".\(url.lastPathComponent).lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io("cannot open \(path): \(Self.lastError())") }
        defer { close(descriptor) }  // closing releases the lock
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .io("cannot lock \(path): \(Self.lastError())") }
        }
        return try body()
    }

    /// Creates `directory` with mode 0700 (its missing parents with the usual mode).
    static func makeDirectory(_ directory: URL) throws(CredentialStoreError) {
        var status = stat()
        if stat(directory.path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw .io("\(directory.path) is not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(at: directory.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .io("cannot create \(directory.deletingLastPathComponent().path)")
        }
        guard mkdir(directory.path, 0o700) == 0 || errno == EEXIST else {
            throw .io("cannot create \(directory.path): \(lastError())")
        }
        guard chmod(directory.path, 0o700) == 0 else { throw .io("cannot restrict \(directory.path): \(lastError())") }
    }

    /// Flushes the directory entry of a rename to disk (best effort: some file systems refuse).
    private static func syncDirectory(_ directory: URL) {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
