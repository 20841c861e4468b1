import Logging
import Synchronization

/// A swift-log backend that keeps every record, to check what is logged (and what never is).
package final class LogCapture: Sendable {
    package struct Record: Sendable {
        package let level: Logger.Level
        package let message: String
        package let metadata: Logger.Metadata

        /// The record as one line of text, metadata included.
        package var text: String { "\(level) \(message) \(metadata)" }
    }

    package init() {}

    private let records = Mutex<[Record]>([])

    package var all: [Record] { records.withLock { $0 } }

    /// A logger at `level` writing here.
    package func logger(level: Logger.Level = .debug) -> Logger {
        var logger = Logger(label: "juice-test-capture") { _ in Handler(capture: self) }
        logger.logLevel = level
        return logger
    }

    fileprivate func append(_ record: Record) {
        records.withLock { $0.append(record) }
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.append(Record(level: event.level, message: "\(event.message)", metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
        }
    }
}
