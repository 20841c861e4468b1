import Crypto
import Foundation
import JuiceInfrastructure

/// Secret files of development mode: created once with mode 0600 (never replacing an existing
/// file), read back on later starts.
package enum SecretFile {
    /// A secret file that cannot be used.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong (never the secret).
        package let reason: String
        package var description: String { reason }
    }

    /// The 32-byte key stored (base64) at `url`, created from `random` if the file does not exist.
    package static func loadOrCreateKey(at url: URL, random: ServerRandom = .system) throws(Failure) -> SymmetricKey {
        if FileManager.default.fileExists(atPath: url.path) {
            guard let text = try? String(contentsOf: url, encoding: .utf8), let key = ServerConfiguration.parseKey(text) else {
                throw Failure(reason: "\(url.path) does not hold a 32-byte base64 key; remove it to generate a new one")
            }
            return key
        }
        let bytes = random.bytes(32)
        try create(url, contents: Data(bytes).base64EncodedString() + "\n")
        return SymmetricKey(data: bytes)
    }

    /// Creates `url` with mode 0600 and writes `contents`; fails if the file exists.
    package static func create(_ url: URL, contents: String) throws(Failure) {
        if let problem = OwnerOnlyFile.create(url, contents: contents) { throw Failure(reason: "\(url.path) \(problem)") }
    }
}
