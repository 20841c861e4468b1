import ArgumentParser

/// The options `juice bench signin` and `juice bench methods` share: which server, its Apple, how
/// many sign-ins and how many at once, and what is timed.
struct BenchLoadOptions: ParsableArguments {
    @Option(help: "The Juice server, e.g. http://127.0.0.1:8080.")
    var server: String

    @Option(help: "The Apple ID emulator the server trusts (development mode: http://127.0.0.1:8081).")
    var emulator: String = "http://127.0.0.1:8081"

    @Option(help: "Sign-ins in flight at once.")
    var concurrency: Int = 16

    @Option(help: "Sign-ins to complete.")
    var count: Int = 1000

    @Option(
        name: .customLong("passkey-origin"),
        help:
            "The origin passkeys sign for: the server's public URL's (default: --server's). juice serve's is http://localhost:PORT unless --public-url."
    )
    var passkeyOrigin: String?

    @Flag(
        name: .customLong("server-only"),
        help:
            "Prepare each sign-in's client side first (Apple: the device credentials at the emulator; passkey: the signed assertions), then time only the server's last step."
    )
    var serverOnly = false

    @Option(
        name: .customLong("server-pid"),
        help:
            "The server's process id on this machine: its CPU time while the clock runs is reported per sign-in (server_cpu_ms_per_sign_in; Linux)."
    )
    var serverPID: Int32?

    /// ``server`` without a trailing slash (valid once ``validate()`` passed).
    var serverBase: String { BenchSignIn.baseURL(server) ?? server }
    /// ``emulator`` without a trailing slash.
    var emulatorBase: String { BenchSignIn.baseURL(emulator) ?? emulator }

    func validate() throws {
        guard (1...BenchSignIn.maximumConcurrency).contains(concurrency) else {
            throw ValidationError("--concurrency must be between 1 and \(BenchSignIn.maximumConcurrency)")
        }
        guard (1...BenchSignIn.maximumCount).contains(count) else {
            throw ValidationError("--count must be between 1 and \(BenchSignIn.maximumCount)")
        }
        guard BenchSignIn.baseURL(server) != nil else {
            throw ValidationError("--server must be an http(s) URL such as http://127.0.0.1:8080")
        }
        guard BenchSignIn.baseURL(emulator) != nil else {
            throw ValidationError("--emulator must be an http(s) URL such as http://127.0.0.1:8081")
        }
        if let serverPID, BenchCPUTime.processCPUTime(serverPID) == nil {
            throw ValidationError("--server-pid \(serverPID): no process whose CPU time can be read from /proc/\(serverPID)/stat")
        }
        if let passkeyOrigin, BenchSignIn.baseURL(passkeyOrigin) == nil {
            throw ValidationError("--passkey-origin must be an origin such as http://localhost:8080")
        }
    }
}
