import JuiceTestSupport

/// This target's loopback ports (see `PortPool`): 20_000..<25_000.
enum FreePort {
    private static let pool = PortPool(range: 20_000..<25_000)

    /// A port free now, never handed out before in this run.
    static func pick() throws -> Int { try pool.pick() }
}
