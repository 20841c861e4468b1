import Foundation
import JuiceEncodings

/// Where Juice's mail goes and whom it comes from: `smtp_url` and `mail_from` of `juice.json`.
///
/// ```swift
/// let mail = try MailSettings(smtpURL: "smtp://127.0.0.1:2525", mailFrom: "Juice <hello@juice.example.com>")
/// ```
public struct MailSettings: Sendable, Hashable {
    /// The SMTP server's host.
    public var smtpHost: String
    /// The SMTP server's port.
    public var smtpPort: Int
    /// The sender (envelope and header `From`); it must be a registered email source for mail to
    /// reach Hide My Email addresses.
    public var sender: MailSender
    /// The deadline of one SMTP delivery.
    public var timeout: Duration = .seconds(30)
    /// Attempts before a mail that keeps failing (4xx, unreachable) is given up.
    public var maximumAttempts: Int = 8
    /// The wait after the first failed attempt; doubled for each further one.
    public var initialBackoff: TimeInterval = 30
    /// The longest wait between two attempts.
    public var maximumBackoff: TimeInterval = 3600

    /// Settings from values already checked.
    public init(smtpHost: String, smtpPort: Int, sender: MailSender) {
        self.smtpHost = smtpHost
        self.smtpPort = smtpPort
        self.sender = sender
    }

    /// Parses `smtp://host[:port]` (port 25 by default) and `Name <address>`.
    /// - Throws: ``MailSettingsError`` naming the field at fault.
    public init(smtpURL: String, mailFrom: String) throws(MailSettingsError) {
        guard let url = URL(string: smtpURL), url.scheme?.lowercased() == "smtp", let host = url.host, !host.isEmpty,
            url.path.isEmpty || url.path == "/", url.query == nil, url.user == nil, url.password == nil
        else {
            throw MailSettingsError(
                .invalidSMTPURL, field: "smtp_url", reason: "must be smtp://host[:port] (plain SMTP, no credentials), e.g. smtp://127.0.0.1:25")
        }
        let port = url.port ?? 25
        guard (1...65535).contains(port) else {
            throw MailSettingsError(.invalidSMTPPort, field: "smtp_url", reason: "the port must be between 1 and 65535")
        }
        guard let sender = MailSender(parsing: mailFrom) else {
            throw MailSettingsError(.invalidMailFrom, field: "mail_from", reason: "must be one address, e.g. \"Juice <hello@juice.example.com>\"")
        }
        self.init(smtpHost: host, smtpPort: port, sender: sender)
    }
}

/// A mail setting that cannot be used: a ``Code``, the field at fault and what is wrong with it.
public struct MailSettingsError: CodedError {
    /// A stable identifier for the problem, e.g. `"invalid_smtp_url"`; the set is closed.
    public typealias Code = ErrorCode<MailSettingsError>

    /// What is wrong.
    public let code: Code
    /// `smtp_url` or `mail_from`.
    public let field: String
    /// What is wrong, for a person.
    public let reason: String

    init(_ code: Code, field: String, reason: String) {
        self.code = code
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field): \(reason)" }

}

extension ErrorCode<MailSettingsError> {
    /// `smtp_url` is not `smtp://host[:port]` without credentials.
    public static var invalidSMTPURL: Self { Self("invalid_smtp_url") }
    /// `smtp_url`'s port is outside 1–65535.
    public static var invalidSMTPPort: Self { Self("invalid_smtp_port") }
    /// `mail_from` is not one address.
    public static var invalidMailFrom: Self { Self("invalid_mail_from") }
}
