/// Why a conformance run could not start (exit status 2): the backend is unreachable, its start URL
/// does not redirect to the kit, the kit's port is taken, or the options are unusable.
public struct ConformanceStartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, for a person; never contains a key or secret.
    public let reason: String

    package init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
