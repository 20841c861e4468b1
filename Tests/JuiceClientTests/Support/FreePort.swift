import JuiceTestSupport

/// This target's loopback ports (see `PortPool`): 25_000..<28_500.
enum FreePort {
    private static let pool = PortPool(range: 25_000..<28_500)

    /// A port free now, never handed out before in this run.
    static func pick() throws -> Int { try pool.pick() }
}
