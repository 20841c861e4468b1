import Foundation
import JuiceTestSupport

/// Runs the built `juice` binary's client commands as a person would at a shell: with its own
/// `$JUICE_HOME` and `$BROWSER`, standard input from a string (never a terminal), a bounded run time.
struct JuiceCommand: Sendable {
    let home: URL
    let browser: String

    /// Runs `juice arguments…`; a run still going after `timeout` is killed and reported. The bound is
    /// generous (a run normally takes seconds) so that a loaded machine does not fail a correct run.
    func run(_ arguments: [String], stdin: String = "", timeout: Duration = .seconds(150)) async throws -> JuiceProcess.Result {
        try await JuiceProcess.run(
            arguments, stdin: stdin, environment: ["JUICE_HOME": home.path, "BROWSER": browser, "PATH": "/usr/bin:/bin", "HOME": home.path],
            timeout: timeout
        )
    }
}
