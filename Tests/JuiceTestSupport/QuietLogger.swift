import Logging

extension Logger {
    /// A logger labelled `label` that lets warnings and worse through: what a test does not capture stays
    /// out of the suite's output.
    package static func quiet(_ label: String) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = .warning
        return logger
    }
}
