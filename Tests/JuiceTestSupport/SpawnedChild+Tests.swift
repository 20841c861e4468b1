import JuiceProcesses

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SpawnedChild {
    /// ``stop(grace:)`` for a test's `defer`, which cannot await: SIGTERM, up to `grace` seconds, then
    /// SIGKILL; blocks the calling thread until the child is reaped. Bounded, so a child that ignores
    /// SIGTERM cannot stall the suite.
    package func stopBlocking(grace: Double = 10) {
        guard isRunning else { return }
        send(SIGTERM)
        var waited = 0.0
        while isRunning && waited < grace {
            usleep(20_000)
            waited += 0.02
        }
        if isRunning { send(SIGKILL) }
        while isRunning { usleep(5_000) }
    }

    /// `python3` (found on `PATH`, else `/usr/bin/python3`) with `arguments`, run to its end.
    package static func python(
        _ arguments: [String], environment: [String: String]? = nil, input: [UInt8] = [], deadline: Duration = .seconds(90)
    ) async throws -> Completed {
        try await run(locate("python3") ?? "/usr/bin/python3", arguments, environment: environment, input: input, deadline: deadline)
    }
}
