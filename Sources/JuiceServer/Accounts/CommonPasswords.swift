import Foundation

/// The list of commonly used and breached passwords that new passwords are checked against
/// (`Resources/common-passwords.txt`: 200,000 passwords of 8 to 72 bytes, lowercase, most common
/// first, from SecLists' ten-million-password list, MIT licence; `scripts/make-common-passwords`
/// regenerates it and says where it comes from).
///
/// Loaded once, on first use, into a hashed set: a lookup is O(1).
struct CommonPasswords: Sendable {
    /// The bundled list, or why it could not be read.
    static let bundled: Result<CommonPasswords, CommonPasswordsUnavailable> = load()

    private let passwords: Set<String>

    /// How many passwords the list holds.
    var count: Int { passwords.count }

    /// Whether `password`, compared in lowercase, is on the list.
    func contains(_ password: String) -> Bool {
        passwords.contains(password.lowercased())
    }

    init(lines: some Sequence<Substring>) {
        var passwords = Set<String>(minimumCapacity: 200_000)
        for line in lines where !line.isEmpty { passwords.insert(String(line)) }
        self.passwords = passwords
    }

    /// Where the list may be: the resource bundle SwiftPM puts next to the executable (`swift run`,
    /// `swift test`, an install that copies `juice_JuiceServer.resources` along), then the source tree
    /// the binary was built from. Not `Bundle.module`: its accessor traps when the bundle is missing,
    /// and a copied binary without its bundle must refuse sign-ups (500), not stop.
    static var candidates: [URL] {
        [
            Bundle.main.bundleURL.appendingPathComponent("juice_JuiceServer.resources/common-passwords.txt"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Resources/common-passwords.txt"),
        ]
    }

    private static func load() -> Result<CommonPasswords, CommonPasswordsUnavailable> {
        for url in candidates {
            guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else { continue }
            return .success(CommonPasswords(lines: text.split(separator: "\n", omittingEmptySubsequences: true)))
        }
        return .failure(CommonPasswordsUnavailable())
    }
}

/// The bundled password list is missing from the build (a packaging error, never caused by input).
struct CommonPasswordsUnavailable: Error, CustomStringConvertible {
    var description: String {
        "the list of common passwords is missing: copy juice_JuiceServer.resources next to the juice executable"
    }
}
