/// How long Juice's HTTP server waits for a client before closing the connection.
///
/// ```swift
/// configuration.httpTimeouts = HTTPTimeouts(idle: .seconds(30), header: .seconds(10), body: .seconds(30))
/// ```
public struct HTTPTimeouts: Sendable, Hashable {
    /// A connection with no request in progress is closed after this (`idle_timeout`).
    public var idle: Duration
    /// A request's head must arrive within this of its first byte (`header_timeout`).
    public var header: Duration
    /// A request's body must arrive within this of the end of its head (`body_timeout`).
    public var body: Duration

    /// Creates the timeouts; the defaults are 60, 10 and 30 seconds.
    public init(idle: Duration = .seconds(60), header: Duration = .seconds(10), body: Duration = .seconds(30)) {
        self.idle = idle
        self.header = header
        self.body = body
    }
}
