import Foundation
import JuiceProcesses

/// Shows the person a URL: with the command in `$BROWSER` if set (the URL as its argument), else with
/// `xdg-open` if it is on the `PATH`, else by printing the URL for the person to open.
///
/// The URL is always announced as well, so the person can copy it when no browser appears. The browser
/// is started and left running; the opener does not wait for it.
///
/// ```swift
/// let opener = BrowserOpener()
/// let how = try opener.open(URL(string: "https://juice.example/auth/apple/native?…")!)
/// ```
public struct BrowserOpener: Sendable {
    /// How a URL was shown.
    public enum Method: Sendable, Hashable {
        /// Run with `$BROWSER` (the command as given).
        case browserCommand(String)
        /// Run with `xdg-open` at this path.
        case xdgOpen(String)
        /// Only printed: no browser could be started.
        case printed
    }

    /// The environment read for `BROWSER` and `PATH`.
    public var environment: [String: String]
    /// Receives the line telling the person where to go (defaults to standard error).
    public var announce: @Sendable (String) -> Void

    /// An opener reading `environment` and announcing through `announce`.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        announce: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) {
        self.environment = environment
        self.announce = announce
    }

    /// Opens `url` in the browser, or asks the person to.
    /// - Returns: How the URL was shown.
    @discardableResult
    public func open(_ url: URL) -> Method {
        let address = url.absoluteString
        if let command = environment["BROWSER"]?.trimmingCharacters(in: .whitespaces), !command.isEmpty,
            launch("/bin/sh", ["-c", command + " \"$1\"", "juice-browser", address])
        {
            announce("Opened your browser to sign in. If it did not open, visit:\n  \(address)")
            return .browserCommand(command)
        }
        if let xdgOpen = executable(named: "xdg-open"), launch(xdgOpen, [address]) {
            announce("Opened your browser to sign in. If it did not open, visit:\n  \(address)")
            return .xdgOpen(xdgOpen)
        }
        announce("Open this address in a browser to sign in:\n  \(address)")
        return .printed
    }

    /// Starts `executable` with `arguments` (the URL passed as an argument, never through a shell's
    /// parser) and leaves it running, its output discarded and none of this process's other descriptors
    /// open in it (a browser may run for hours: it must not keep the loopback callback's listener bound);
    /// `false` when it cannot be started.
    private func launch(_ executable: String, _ arguments: [String]) -> Bool {
        SpawnedChild.startDetached(executable, arguments, environment: environment)
    }

    /// The first executable `name` on `$PATH`.
    private func executable(named name: String) -> String? {
        SpawnedChild.locate(name, path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
    }
}
