/// Why the account store refused a change (the transaction was rolled back; nothing was written).
enum AccountStoreError: Error, Sendable, Hashable {
    /// A password account with this username exists.
    case usernameTaken
    /// The Apple ID belongs to another account than the one it was to be linked to.
    case appleIDBelongsToAnotherAccount
    /// The account to link already has another Apple ID.
    case accountHasAnotherAppleID
    /// The account to link no longer exists.
    case linkTargetMissing
    /// An account the transaction wrote could not be read back.
    case accountMissing
}
