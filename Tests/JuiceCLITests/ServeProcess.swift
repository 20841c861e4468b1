import Foundation
import JuiceProcesses
import JuiceTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `juice serve` in development mode as a child process on free ports; stopped by ``stop()`` or SIGTERM.
final class ServeProcess {
    /// The running `juice serve`, once ``start()`` has started it.
    private(set) var child: SpawnedChild?
    let port: Int
    let emulatorPort: Int
    let smtpPort: Int
    let dataDirectory: URL
    let log: URL
    /// More `juice serve` arguments (for example `--demo-apple-ids 3`).
    var extraArguments: [String] = []

    var url: String { "http://127.0.0.1:\(port)" }
    var emulatorURL: String { "http://127.0.0.1:\(emulatorPort)" }
    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    init() throws {
        port = try FreePort.pick()
        emulatorPort = try FreePort.pick()
        smtpPort = try FreePort.pick()
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-serve-\(UUID().uuidString)")
        log = FileManager.default.temporaryDirectory.appendingPathComponent("juice-serve-\(UUID().uuidString).log")
    }

    /// Another run on `previous`'s ports and data directory: a restart after it stopped or was killed.
    init(restarting previous: ServeProcess) {
        port = previous.port
        emulatorPort = previous.emulatorPort
        smtpPort = previous.smtpPort
        dataDirectory = previous.dataDirectory
        log = FileManager.default.temporaryDirectory.appendingPathComponent("juice-serve-\(UUID().uuidString).log")
    }

    /// Starts it and waits for its ready line (`--ready-json`: every listener accepts connections).
    func start() async throws {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let arguments =
            [
                "serve", "--data-dir", dataDirectory.path, "--port", "\(port)", "--emulator-port", "\(emulatorPort)", "--public-url", url,
                "--emulator-smtp-port", "\(smtpPort)", "--log-level", "warning", "--ready-json",
            ] + extraArguments
        let child = try SpawnedChild.start(
            JuiceProcess.executable.path, arguments, environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("JUICE_") },
            standardIO: .file(log.path))
        self.child = child
        let ready = try await ReadyLine.wait(for: child, log: log)
        guard ready["url"] as? String == url, ready["apple"] is String else { throw ServeProcessError(output: output) }
    }

    /// Whether it runs (it was started and has not exited).
    var isRunning: Bool { child?.isRunning ?? false }

    /// Sends `signal` (SIGTERM by default).
    func terminate(_ signal: Int32 = SIGTERM) {
        child?.send(signal)
    }

    /// Waits up to `seconds` for the process to exit; returns whether it did.
    func waitForExit(seconds: Double) async throws -> Bool {
        guard let child else { return true }
        let deadline = Date().addingTimeInterval(seconds)
        while child.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        return !child.isRunning
    }

    /// Stops it if still running and removes its files.
    func stop() {
        child?.stopBlocking()
        try? FileManager.default.removeItem(at: dataDirectory)
        try? FileManager.default.removeItem(at: log)
    }
}

struct ServeProcessError: Error, CustomStringConvertible {
    let output: String
    var description: String { "juice serve did not start:\n\(output.suffix(2000))" }
}

/// A blocking HTTP/1.1 connection on a raw socket, to hold a request half-sent.
final class RawHTTPConnection {
    private let descriptor: Int32

    init(port: Int) throws {
        guard let descriptor = LoopbackSocket.connected(toPort: port, receiveTimeout: 20) else { throw POSIXError(.ECONNREFUSED) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw POSIXError(.EPIPE) }
            sent += written
        }
    }

    /// Reads until the server closes the connection (or the 20 s timeout).
    func readAll() -> String {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            data += buffer[0..<count]
        }
        return String(decoding: data, as: UTF8.self)
    }
}
