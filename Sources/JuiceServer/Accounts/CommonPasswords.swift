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

    /// Where the list must be: in the resource bundle SwiftPM puts next to the executable (`swift run`,
    /// `swift test`, an install that copies `juice_JuiceServer.resources` along). Nowhere else: a binary never
    /// falls back to the source tree it was built from, which a copied release binary may still find on the
    /// build machine and nowhere else. Not `Bundle.module`: its accessor traps when the bundle is missing.
    static var location: URL {
        Bundle.main.bundleURL.appendingPathComponent("juice_JuiceServer.resources/common-passwords.txt")
    }

    private static func load() -> Result<CommonPasswords, CommonPasswordsUnavailable> {
        let url = location
        guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else {
            return .failure(CommonPasswordsUnavailable(path: url.path))
        }
        let list = CommonPasswords(lines: text.split(separator: "\n", omittingEmptySubsequences: true))
        guard list.count > 0 else { return .failure(CommonPasswordsUnavailable(path: url.path)) }
        return .success(list)
    }
}

/// The bundled password list is missing from the build (a packaging error, never caused by input):
/// `buildApplication` refuses to start with it, so a copied `juice` without its resources says why at once
/// instead of answering every sign-up with a 500.
struct CommonPasswordsUnavailable: Error, CustomStringConvertible {
    /// The file that was looked for.
    let path: String

    var description: String {
        "the list of common passwords is missing: \(path) could not be read; copy juice_JuiceServer.resources "
            + "(from the build directory) next to the juice executable"
    }
}
