#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Tunables of a running emulator. The defaults suit everyday use; tests shorten the delays.
public struct EmulatorOptions: Sendable {
    /// How long a replaced signing key stays in `/auth/keys` after a rotation (one day by default).
    public var keyGracePeriod: TimeInterval
    /// How often the notification outbox looks for due deliveries.
    public var outboxPollInterval: Duration
    /// The delay before the second delivery attempt; it doubles for each further attempt.
    public var outboxInitialBackoff: TimeInterval
    /// The longest delay between two attempts.
    public var outboxMaximumBackoff: TimeInterval
    /// Attempts before a notification is given up.
    public var outboxMaximumAttempts: Int
    /// The deadline of one delivery attempt: connection, request, answer head and body together (10 s by
    /// default). An attempt that passes it is recorded as a timeout and retried.
    public var outboxRequestTimeout: Duration
    /// The most notification endpoints delivered to at once (one notification in flight per endpoint).
    public var outboxConcurrentEndpoints: Int = 16
    /// The private email relay's SMTP listener; `nil` runs none.
    public var smtp: SMTPOptions?
    /// The domain new relay addresses are issued on: `private.icloud.com` by default, as Apple does since
    /// 2026-06-15; `.privateRelay` keeps the old `privaterelay.appleid.com`. Addresses already issued keep
    /// their domain, and the relay delivers to every issued address.
    public var relayDomain: RelayDomain
    /// The HTTP server closes a connection with no request in progress after this (60 s by default).
    public var httpIdleTimeout: Duration = .seconds(60)
    /// A request's head must arrive within this of its first byte, or the connection is closed (10 s).
    public var httpHeaderTimeout: Duration = .seconds(10)
    /// A request's body must arrive within this of the end of its head, or the connection is closed (30 s).
    public var httpBodyTimeout: Duration = .seconds(30)

    /// Creates options.
    public init(
        keyGracePeriod: TimeInterval = 86_400,
        outboxPollInterval: Duration = .seconds(1),
        outboxInitialBackoff: TimeInterval = 5,
        outboxMaximumBackoff: TimeInterval = 3600,
        outboxMaximumAttempts: Int = 10,
        outboxRequestTimeout: Duration = .seconds(10),
        smtp: SMTPOptions? = nil,
        relayDomain: RelayDomain = .privateICloud
    ) {
        self.smtp = smtp
        self.relayDomain = relayDomain
        self.keyGracePeriod = keyGracePeriod
        self.outboxPollInterval = outboxPollInterval
        self.outboxInitialBackoff = outboxInitialBackoff
        self.outboxMaximumBackoff = outboxMaximumBackoff
        self.outboxMaximumAttempts = max(1, outboxMaximumAttempts)
        self.outboxRequestTimeout = outboxRequestTimeout
    }

    /// The delay after `attempts` failed attempts: doubling from the initial backoff, capped.
    func backoff(afterAttempts attempts: Int) -> TimeInterval {
        // 2^(attempts-1) exactly; an exponent past Double's range is infinity, and the cap applies.
        min(outboxMaximumBackoff, outboxInitialBackoff * Double(sign: .plus, exponent: max(0, attempts - 1), significand: 1))
    }
}

/// The private email relay's SMTP listener (RFC 5321 with SIZE and 8BITMIME).
public struct SMTPOptions: Sendable {
    /// The address to bind (loopback by default).
    public var host: String
    /// The port; 0 picks a free one (see `onSMTPRunning` of `buildEmulatorApplication`).
    public var port: Int
    /// The largest message accepted, in octets (advertised as `SIZE`).
    public var maximumMessageSize: Int
    /// A connection that sends nothing for this long is told `421` and closed.
    public var idleTimeout: Duration
    /// The most connections served at once; further ones are told `421` and closed.
    public var maximumConnections: Int
    /// The most connections served at once from one client address (below ``maximumConnections``, so one
    /// client cannot take every slot); further ones from that address are told `421` and closed.
    public var maximumConnectionsPerAddress: Int
    /// The longest a whole conversation may last; then the client is told `421` and the connection closed.
    public var sessionTimeout: Duration
    /// The slowest a client may send a line it has begun, in octets per second, measured over
    /// ``dataRateWindow``: a client that trickles a line slower is told `421` and closed.
    public var minimumDataRate: Int
    /// The period over which ``minimumDataRate`` is measured.
    public var dataRateWindow: Duration
    /// The most refused `RCPT TO` in one conversation; the next refusal is followed by `421` and the
    /// connection is closed (recipient guessing, and floods of the refusal log).
    public var maximumRefusedRecipients: Int
    /// Messages one relay address accepts in 24 hours (Apple's limit is 100); further ones get `450`.
    public var dailyLimitPerAddress: Int

    /// Creates SMTP options.
    public init(
        host: String = "127.0.0.1", port: Int = 2525, maximumMessageSize: Int = 10 * 1024 * 1024, idleTimeout: Duration = .seconds(300),
        maximumConnections: Int = 64, maximumConnectionsPerAddress: Int = 8, sessionTimeout: Duration = .seconds(600),
        minimumDataRate: Int = 32, dataRateWindow: Duration = .seconds(10), maximumRefusedRecipients: Int = 10,
        dailyLimitPerAddress: Int = 100
    ) {
        self.dailyLimitPerAddress = max(1, dailyLimitPerAddress)
        self.host = host
        self.port = port
        self.maximumMessageSize = max(1024, maximumMessageSize)
        self.idleTimeout = idleTimeout
        self.maximumConnections = max(1, maximumConnections)
        self.maximumConnectionsPerAddress = min(max(1, maximumConnectionsPerAddress), self.maximumConnections)
        self.sessionTimeout = max(.seconds(1), sessionTimeout)
        self.minimumDataRate = max(0, minimumDataRate)
        self.dataRateWindow = max(.milliseconds(100), dataRateWindow)
        self.maximumRefusedRecipients = max(1, maximumRefusedRecipients)
    }
}
