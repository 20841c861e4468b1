import JuiceTestSupport

/// This target's loopback ports (see `PortPool`): 18_000..<20_000.
enum FreePort {
    private static let pool = PortPool(range: 18_000..<20_000)

    /// A port free now, never handed out before in this run.
    static func pick() throws -> Int { try pool.pick() }
}
