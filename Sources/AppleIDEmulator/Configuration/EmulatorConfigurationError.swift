import JuiceEncodings

/// Why an emulator configuration was refused: every problem found, each with the field it is about.
///
/// ```text
/// the emulator configuration has 2 problems:
/// - apps[0].redirect_uris[0]: "http://app.example.com/cb" must use https (or set allow_local_redirects)
/// - apple_ids[1].email: "bob@example.org" appears twice
/// ```
public struct EmulatorConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One problem with one field.
    public typealias Problem = ConfigurationProblem

    /// Every problem found.
    public let problems: [Problem]

    /// Creates an error.
    public init(problems: [Problem]) {
        self.problems = problems
    }

    /// A human-readable summary listing every problem.
    public var reason: String {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return "the emulator configuration has \(count):\n" + problems.map { "- \($0)" }.joined(separator: "\n")
    }

    public var description: String { reason }
}
