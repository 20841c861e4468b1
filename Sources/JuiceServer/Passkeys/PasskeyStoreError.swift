/// A stored passkey row the server cannot read back (written by something else than this server).
enum PasskeyStoreError: Error, Sendable, Hashable {
    /// The named column of a `passkey_credentials` row holds a value out of its range.
    case unreadableRow(String)
}
