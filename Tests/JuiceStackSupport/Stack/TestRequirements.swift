import Foundation
import JuiceTestSupport

/// What the run demands of its environment.
///
/// `JUICE_TEST_REQUIRE_ALL=1` (set by `scripts/test`, the command CI runs) turns every variant that
/// would be skipped for lack of a tool — PostgreSQL, Chromium, chromedriver, selenium — into a
/// failure, so a run can never pass without them. Without it, plain `swift test` skips them with a
/// notice.
package enum TestRequirements {
    package static var requireAll: Bool { ProcessInfo.processInfo.environment["JUICE_TEST_REQUIRE_ALL"] == "1" }

    /// Prints `message` once on standard error (test arguments are computed while the run is
    /// planned, so this comes before the first test starts).
    package static func notice(_ message: String) {
        FileHandle.standardError.write(Data("◇ Notice: \(message)\n".utf8))
    }
}
