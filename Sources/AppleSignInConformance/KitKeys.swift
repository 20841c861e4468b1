import AppleIDEmulator
import CryptoExtras
import Foundation

/// The kit's RSA signing keys: the published set, the key that signs now, and rotation to a key the
/// backend has never seen.
struct KitKeys: Sendable {
    struct Key: Sendable {
        let keyID: String
        let privateKey: _RSA.Signing.PrivateKey
    }

    /// Newest first; the first signs.
    private(set) var published: [Key]

    init() throws {
        published = [try Self.generate()]
    }

    var active: Key {
        // `published` is never empty: it starts with one key and rotation only adds.
        published[0]
    }

    /// A new key and kid, published from now on and signing from now on; the old key stays published.
    mutating func rotate() throws {
        published.insert(try Self.generate(), at: 0)
    }

    /// A key that is not and will never be published.
    static func unpublished() throws -> Key {
        try generate()
    }

    /// `/auth/keys`' body.
    func keySetJSON() throws -> Data {
        try ConformanceSupport.keySetJSON(published.map { ($0.keyID, $0.privateKey.publicKey) })
    }

    private static func generate() throws -> Key {
        Key(keyID: RandomText.keyID(), privateKey: try _RSA.Signing.PrivateKey(keySize: .bits2048))
    }
}
