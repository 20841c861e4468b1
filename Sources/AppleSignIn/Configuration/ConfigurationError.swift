import JuiceEncodings

/// A configuration that cannot be used, with every problem found (not just the first).
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// One problem with one field.
    public typealias Problem = ConfigurationProblem

    /// Every problem found.
    public let problems: [Problem]

    /// Creates an error from one or more problems.
    public init(_ problems: [Problem]) {
        self.problems = problems
    }

    /// Creates an error with a single problem.
    public init(field: String, _ message: String) {
        self.problems = [Problem(field: field, message: message)]
    }

    /// The code used for this error in JSON bodies and CLI output.
    public var code: String { "invalid_configuration" }

    public var description: String {
        "invalid configuration: " + problems.map(\.description).joined(separator: "; ")
    }
}
