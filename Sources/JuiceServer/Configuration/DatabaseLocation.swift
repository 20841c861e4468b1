import Foundation
import JuiceEncodings

/// Where the server's database is: a SQLite file, or a PostgreSQL server.
///
/// Parsed from `--database`: `sqlite:PATH`, `sqlite:///ABSOLUTE/PATH`, a plain file path, or
/// `postgres://user:password@host:port/database` (also `postgresql://`).
public enum DatabaseLocation: Sendable, Hashable, CustomStringConvertible {
    /// A SQLite file (created if missing; WAL mode).
    case sqlite(path: String)
    /// A PostgreSQL URL.
    case postgres(url: String)

    /// Parses a database URL or path.
    /// - Throws: a message naming what is wrong.
    public init(parsing text: String) throws(DatabaseLocationError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw DatabaseLocationError(.empty, "the database URL is empty") }
        let lower = trimmed.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") {
            guard let url = URL(string: trimmed), url.host?.isEmpty == false else {
                throw DatabaseLocationError(
                    .invalidURL, "\(Self.redacted(trimmed)) is not a valid PostgreSQL URL (postgres://user:password@host:5432/database)")
            }
            self = .postgres(url: trimmed)
        } else if lower.hasPrefix("sqlite://") {
            let path = String(trimmed.dropFirst("sqlite://".count))
            guard !path.isEmpty else {
                throw DatabaseLocationError(.missingPath, "sqlite:// needs a path, e.g. sqlite:///var/lib/juice/juice.sqlite")
            }
            self = .sqlite(path: path)
        } else if lower.hasPrefix("sqlite:") {
            let path = String(trimmed.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw DatabaseLocationError(.missingPath, "sqlite: needs a path, e.g. sqlite:juice-data/juice.sqlite") }
            self = .sqlite(path: path)
        } else if trimmed.contains("://") {
            throw DatabaseLocationError(.unknownScheme, "unknown database scheme in \(Self.redacted(trimmed)); use sqlite:PATH or postgres://…")
        } else {
            self = .sqlite(path: trimmed)
        }
    }

    /// The location with any password hidden.
    public var description: String {
        switch self {
        case .sqlite(let path): return "sqlite:\(path)"
        case .postgres(let url): return Self.redacted(url)
        }
    }

    /// `url` with the password of its user info replaced by `***`.
    static func redacted(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://"), let at = url[schemeEnd.upperBound...].firstIndex(of: "@") else { return url }
        let userInfo = url[schemeEnd.upperBound..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return url }
        return String(url[..<url.index(after: colon)]) + "***" + String(url[at...])
    }
}

/// A database location that cannot be used: a ``Code`` and a reason that never holds the password.
public struct DatabaseLocationError: CodedError {
    /// A stable identifier for the problem, e.g. `"empty"`; the set is closed.
    public typealias Code = ErrorCode<DatabaseLocationError>

    /// What is wrong.
    public let code: Code
    /// What is wrong, for a person (never the password).
    public let reason: String

    init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

}

extension ErrorCode<DatabaseLocationError> {
    /// The database URL is empty.
    public static var empty: Self { Self("empty") }
    /// Neither `sqlite:` nor `postgres://`.
    public static var unknownScheme: Self { Self("unknown_scheme") }
    /// A `postgres://` URL that cannot be parsed.
    public static var invalidURL: Self { Self("invalid_url") }
    /// A `sqlite:` URL without a path.
    public static var missingPath: Self { Self("missing_path") }
    /// The database could not be opened or reached.
    public static var unreachable: Self { Self("unreachable") }
}
