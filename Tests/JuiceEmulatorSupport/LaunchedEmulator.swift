import JuiceTestSupport

/// An emulator ``EmulatorLauncher`` started, listening on 127.0.0.1.
package struct LaunchedEmulator: Sendable {
    /// Its HTTP port.
    package let port: Int
    /// The private email relay's SMTP port, when the launch asked for the relay.
    package let smtpPort: Int?

    package var baseURL: String { "http://127.0.0.1:\(port)" }
}
