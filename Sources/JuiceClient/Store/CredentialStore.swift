import Foundation

/// Keeps what the Juice sample keeps in the keychain: per server, the signed-in session (its token and
/// the current Apple user identifier) and saved password credentials; per relying party, the passkeys'
/// keys (``CredentialStore/passkeyCredentialIDs(relyingPartyIdentifier:)``).
///
/// Everything lives under ``directory`` (mode 0700) in files only the owner can read (0600), each
/// replaced atomically. A file that is not what the store wrote is reported as
/// ``CredentialStoreError/Code/corrupt``, never ignored or overwritten by a read.
///
/// ```swift
/// let store = try CredentialStore(directory: CredentialStore.defaultDirectory())
/// try await store.saveSession(StoredSession(token: token, userIdentifier: credential.user), for: server)
/// if let session = try await store.session(for: server) { … }
/// ```
public actor CredentialStore {
    /// The directory holding the store's files.
    public nonisolated let directory: URL

    private var sessionsFile: PrivateFile { PrivateFile(url: directory.appendingPathComponent("sessions.json")) }
    private var passwordsFile: PrivateFile { PrivateFile(url: directory.appendingPathComponent("passwords.json")) }

    /// A store in `directory` (created with mode 0700 on the first write).
    public init(directory: URL) {
        self.directory = directory
    }

    /// `$JUICE_HOME`, else `$XDG_DATA_HOME/juice`, else `$HOME/.local/share/juice`.
    ///
    /// As the XDG base directory specification says, a relative `$XDG_DATA_HOME` is ignored.
    /// - Throws: ``CredentialStoreError/Code/noLocation`` when none of them is set.
    public static func defaultDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CredentialStoreError) -> URL {
        if let home = environment["JUICE_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("juice", isDirectory: true)
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share/juice", isDirectory: true)
        }
        throw .noLocation("set JUICE_HOME (or XDG_DATA_HOME or HOME) to say where Juice keeps its credentials")
    }

    // MARK: - Sessions

    /// The session with `server`, if one is saved.
    public func session(for server: URL) throws(CredentialStoreError) -> StoredSession? {
        try load(SessionsFile.self, from: sessionsFile).sessions[Self.key(for: server)]
    }

    /// Saves `session` as the session with `server`, replacing any other.
    public func saveSession(_ session: StoredSession, for server: URL) throws(CredentialStoreError) {
        var file = try load(SessionsFile.self, from: sessionsFile)
        file.sessions[Self.key(for: server)] = session
        try save(file, to: sessionsFile)
    }

    /// Forgets the session with `server` (signing out locally); nothing happens when there is none.
    public func removeSession(for server: URL) throws(CredentialStoreError) {
        var file = try load(SessionsFile.self, from: sessionsFile)
        guard file.sessions.removeValue(forKey: Self.key(for: server)) != nil else { return }
        try save(file, to: sessionsFile)
    }

    // MARK: - Passwords

    /// The password credentials saved for `server`, the most recently saved first.
    public func passwords(for server: URL) throws(CredentialStoreError) -> [PasswordCredential] {
        try load(PasswordsFile.self, from: passwordsFile).servers[Self.key(for: server)] ?? []
    }

    /// Saves `credential` for `server`, replacing a saved one with the same user name.
    public func savePassword(_ credential: PasswordCredential, for server: URL) throws(CredentialStoreError) {
        var file = try load(PasswordsFile.self, from: passwordsFile)
        let key = Self.key(for: server)
        file.servers[key] = [credential] + (file.servers[key] ?? []).filter { $0.user != credential.user }
        try save(file, to: passwordsFile)
    }

    /// Forgets the password saved for `user` at `server`; nothing happens when there is none.
    public func removePassword(user: String, for server: URL) throws(CredentialStoreError) {
        var file = try load(PasswordsFile.self, from: passwordsFile)
        let key = Self.key(for: server)
        guard let saved = file.servers[key], saved.contains(where: { $0.user == user }) else { return }
        let remaining = saved.filter { $0.user != user }
        file.servers[key] = remaining.isEmpty ? nil : remaining
        try save(file, to: passwordsFile)
    }

    // MARK: - Files

    /// The identity of a server: scheme, host and port in lower case, and the path without a trailing
    /// slash, so `HTTP://Example.com/` and `http://example.com` share their credentials.
    static func key(for server: URL) -> String {
        guard var components = URLComponents(url: server, resolvingAgainstBaseURL: false) else { return server.absoluteString }
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        while components.path.hasSuffix("/") { components.path.removeLast() }
        return components.string ?? server.absoluteString
    }

    func load<File: StoreFile>(_ type: File.Type, from file: PrivateFile) throws(CredentialStoreError) -> File {
        guard let data = try file.load() else { return File() }
        let decoded: File
        do {
            decoded = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw .corrupt("\(file.url.path) is not a Juice credential file (\(Self.summary(of: error))); move it away to start afresh")
        }
        guard decoded.version == File.currentVersion else {
            throw .corrupt("\(file.url.path) has format version \(decoded.version); this Juice reads version \(File.currentVersion)")
        }
        return decoded
    }

    func save<File: StoreFile>(_ value: File, to file: PrivateFile) throws(CredentialStoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw .io("cannot encode \(file.url.lastPathComponent)")
        }
        try file.replace(with: data)
    }

    /// Where decoding failed, without the values (they may be secrets).
    private static func summary(of error: any Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted(let context)?: context.codingPath.isEmpty ? "not valid JSON" : "bad value at \(path(context.codingPath))"
        case .keyNotFound(let key, let context)?: "missing \"\(key.stringValue)\" at \(path(context.codingPath))"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?: "wrong type at \(path(context.codingPath))"
        default: "unreadable"
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "the top level" : codingPath.map(\.stringValue).joined(separator: ".")
    }
}

/// A JSON file of the store, with a format version.
protocol StoreFile: Codable {
    static var currentVersion: Int { get }
    var version: Int { get }
    init()
}

/// `sessions.json`: `{"version": 1, "sessions": {"<server>": {"token", "userIdentifier"?, "accountID"?}}}`.
private struct SessionsFile: StoreFile {
    static let currentVersion = 1
    var version = Self.currentVersion
    var sessions: [String: StoredSession] = [:]
}

/// `passwords.json`: `{"version": 1, "servers": {"<server>": [{"user", "password"}]}}`.
private struct PasswordsFile: StoreFile {
    static let currentVersion = 1
    var version = Self.currentVersion
    var servers: [String: [PasswordCredential]] = [:]
}
