import ArgumentParser

/// A failure reported to the person at the terminal: the message on standard error, exit status 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String

    init(_ message: String) {
        description = message
    }
}
