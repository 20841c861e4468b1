import Foundation

extension CredentialStore {
    private var passkeysFile: PrivateFile { PrivateFile(url: directory.appendingPathComponent("passkeys.json")) }

    /// The ids of the passkeys this store holds, of `relyingPartyIdentifier` or of every relying party
    /// when it is `nil`, the most recently made first.
    public func passkeyCredentialIDs(relyingPartyIdentifier: String? = nil) throws(CredentialStoreError) -> [Data] {
        try loadPasskeys().passkeys.filter { relyingPartyIdentifier == nil || $0.relyingPartyIdentifier == relyingPartyIdentifier }.map(
            \.credentialID)
    }

    /// The passkeys of `relyingPartyIdentifier`, the most recently made first.
    func passkeys(relyingPartyIdentifier: String) throws(CredentialStoreError) -> [StoredPasskey] {
        try loadPasskeys().passkeys.filter { $0.relyingPartyIdentifier == relyingPartyIdentifier }
    }

    /// Keeps a new passkey, first in the list.
    /// - Returns: `false`, saving nothing, when a passkey of the relying party has the same credential id.
    func savePasskey(_ passkey: StoredPasskey) throws(CredentialStoreError) -> Bool {
        var file = try loadPasskeys()
        guard
            !file.passkeys.contains(where: { $0.relyingPartyIdentifier == passkey.relyingPartyIdentifier && $0.credentialID == passkey.credentialID })
        else {
            return false
        }
        file.passkeys.insert(passkey, at: 0)
        try save(file, to: passkeysFile)
        return true
    }

    /// Forgets the passkey `credentialID` (its key is gone for good), as a relying party's
    /// `signalUnknownCredential` makes a passkey manager do; nothing happens when it is not here.
    public func removePasskey(credentialID: Data) throws(CredentialStoreError) {
        var file = try loadPasskeys()
        let count = file.passkeys.count
        file.passkeys.removeAll { $0.credentialID == credentialID }
        guard file.passkeys.count != count else { return }
        try save(file, to: passkeysFile)
    }

    /// Counts one more signature by the passkey `credentialID` of `relyingPartyIdentifier` and saves the
    /// counter before it is used, so no two signatures carry the same one.
    /// - Returns: The passkey with its new counter.
    /// - Throws: ``CredentialStoreError/Code/corrupt`` when the counter is at its maximum (a file no
    ///   authenticator wrote after four billion sign-ins).
    func countSignature(credentialID: Data, relyingPartyIdentifier: String) throws(CredentialStoreError) -> StoredPasskey? {
        var file = try loadPasskeys()
        guard let index = file.passkeys.firstIndex(where: { $0.relyingPartyIdentifier == relyingPartyIdentifier && $0.credentialID == credentialID })
        else {
            return nil
        }
        guard file.passkeys[index].signCount < UInt32.max else {
            throw .corrupt("\(passkeysFile.url.path): a passkey's signature counter is at its maximum")
        }
        file.passkeys[index].signCount += 1
        try save(file, to: passkeysFile)
        return file.passkeys[index]
    }

    /// `passkeys.json`, each entry checked: a file the store did not write is refused, never used.
    private func loadPasskeys() throws(CredentialStoreError) -> PasskeysFile {
        let file = try load(PasskeysFile.self, from: passkeysFile)
        var seen = Set<PasskeyIdentity>()
        for passkey in file.passkeys {
            do {
                try passkey.check()
            } catch {
                throw .corrupt("\(passkeysFile.url.path): \(error.reason); move it away to start afresh")
            }
            guard seen.insert(PasskeyIdentity(relyingPartyIdentifier: passkey.relyingPartyIdentifier, credentialID: passkey.credentialID)).inserted
            else {
                throw .corrupt("\(passkeysFile.url.path) holds the same passkey twice; move it away to start afresh")
            }
        }
        return file
    }
}

/// What names a passkey: its relying party and credential id.
private struct PasskeyIdentity: Hashable {
    let relyingPartyIdentifier: String
    let credentialID: Data
}

/// `passkeys.json`: `{"version": 1, "passkeys": [{"relyingPartyIdentifier", "credentialID", "userID",
/// "userName", "privateKey", "signCount"}]}`, byte strings in base64, the most recently made first.
private struct PasskeysFile: StoreFile {
    static let currentVersion = 1
    var version = Self.currentVersion
    var passkeys: [StoredPasskey] = []
}
