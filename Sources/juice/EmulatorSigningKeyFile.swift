import CryptoExtras
import Foundation
import JuiceInfrastructure

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `juice emulator --signing-keys FILE`: the emulator's two RSA-2048 signing keys (active, then
/// standby) kept in one PEM file across starts, so that a start on a new data directory reads two keys
/// instead of generating them (most of a start's time).
///
/// The file is created (mode 0600, written whole or not at all) with two new keys when it does not
/// exist. It is a private key file: one that others can read (group or other permission bits) is refused,
/// and so is one that does not hold exactly two RSA-2048 private keys. Keys are the emulator's identity:
/// give different configurations different files (juice_testkit's key cache names its files by a digest
/// of the configuration's teams and issuer).
enum EmulatorSigningKeyFile {
    /// The keys in `path`, or two new ones written there when the file does not exist.
    static func keys(at path: String) throws -> [_RSA.Signing.PrivateKey] {
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: path) else { return try create(url) }
        let permissions = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0o777
        guard permissions & 0o077 == 0 else {
            throw CLIError("--signing-keys \(path): others may read it (mode \(String(permissions, radix: 8))); chmod 600 it")
        }
        guard let data = try? Data(contentsOf: url), data.count <= 64 * 1024 else { throw CLIError("--signing-keys \(path): cannot read it") }
        let keys = pemBlocks(String(decoding: data, as: UTF8.self)).compactMap { try? _RSA.Signing.PrivateKey(pemRepresentation: $0) }
        guard keys.count == 2, keys.allSatisfy({ $0.keySizeInBits == 2048 }) else {
            throw CLIError("--signing-keys \(path): not two RSA-2048 private keys; delete it to have new ones made")
        }
        return keys
    }

    private static func create(_ url: URL) throws -> [_RSA.Signing.PrivateKey] {
        let keys = [try _RSA.Signing.PrivateKey(keySize: .bits2048), try _RSA.Signing.PrivateKey(keySize: .bits2048)]
        let staging = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        let text = keys.map(\.pemRepresentation).joined(separator: "\n") + "\n"
        if let problem = OwnerOnlyFile.create(staging, contents: text) { throw CLIError("--signing-keys: \(staging.path) \(problem)") }
        // Two starts that both found no file both write one; either file is whole, and each start
        // uses the keys it made.
        guard rename(staging.path, url.path) == 0 else {
            unlink(staging.path)
            throw CLIError("--signing-keys \(url.path): cannot write it")
        }
        return keys
    }

    /// The PEM blocks (`-----BEGIN …-----` to `-----END …-----`) of `text`.
    private static func pemBlocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring] = []
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("-----BEGIN ") { current = [] }
            current.append(line)
            if line.hasPrefix("-----END ") { blocks.append(current.joined(separator: "\n")) }
        }
        return blocks
    }
}
