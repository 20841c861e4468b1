/// The tests' loopback ports: one ``PortPool`` for the whole test process, over 18000–31999 (below the
/// kernel's ephemeral range), so no two tests of any target are ever handed the same port.
package enum FreePort {
    private static let pool = PortPool(range: 18_000..<32_000)

    /// A port free now, never handed out before in this run.
    package static func pick() throws -> Int { try pool.pick() }
}
