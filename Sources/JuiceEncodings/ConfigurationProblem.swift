/// One problem with one field of a configuration (the toolkit's and server's `juice.json`, the emulator's
/// configuration and seeds): the field, as a name or a path like `apps[0].redirect_uris[1]`, and what is wrong.
public struct ConfigurationProblem: Sendable, Hashable, CustomStringConvertible {
    /// The field, as named in the document (e.g. `team_id`, `apps[0].redirect_uris[1]`).
    public let field: String
    /// What is wrong with it; never a secret's value.
    public let message: String

    /// A problem with `field`.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}
