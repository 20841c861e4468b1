/// The one request a ``LoopbackReceiver`` accepted: Apple's response as the bridge handed it over.
///
/// Its `description` shows the parameter names only: their values carry codes and tokens.
public struct LoopbackCallback: Sendable, Hashable {
    /// One decoded query or form parameter.
    public struct Parameter: Sendable, Hashable {
        /// The name.
        public let name: String
        /// The value.
        public let value: String

        /// A parameter `name=value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `GET` (parameters from the query) or `POST` (parameters from a `form_post` body).
    public let method: String
    /// The parameters in the order they came, duplicates kept.
    public let parameters: [Parameter]

    /// A callback received with `method` carrying `parameters`.
    public init(method: String, parameters: [Parameter]) {
        self.method = method
        self.parameters = parameters
    }

    /// The parameters as `(name, value)` pairs, in order.
    public var fields: [(String, String)] { parameters.map { ($0.name, $0.value) } }

    /// The first value of the parameter `name`.
    public subscript(name: String) -> String? { parameters.first { $0.name == name }?.value }
}

extension LoopbackCallback: CustomStringConvertible, CustomReflectable {
    public var description: String { "LoopbackCallback(\(method), parameters: \(parameters.map(\.name)))" }
    public var customMirror: Mirror { Mirror(self, children: ["method": method, "parameterNames": parameters.map(\.name)]) }
}
