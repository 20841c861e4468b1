import Logging

/// Logging defaults for the toolkit.
public enum AppleSignInLogging {
    /// A logger that discards everything: the toolkit's default, so it stays silent unless given one.
    public static let disabled = Logger(label: "apple-sign-in", factory: { _ in SwiftLogNoOpLogHandler() })
}
