import Logging
import Synchronization

/// Collects every log line (message and metadata) at trace level, to check what never appears in logs.
final class CapturedLogs: Sendable {
    private let lines = Mutex<[String]>([])

    var all: [String] { lines.withLock { $0 } }

    var logger: Logger {
        var logger = Logger(label: "captured") { _ in Handler(sink: self) }
        logger.logLevel = .trace
        return logger
    }

    func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    struct Handler: LogHandler {
        let sink: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            sink.append("\(event.level) \(event.message) \(merged)")
        }
    }
}
