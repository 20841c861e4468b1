/// What bcrypt actually reads of a password: its UTF-8 bytes, up to the first NUL and at most 72 of
/// them. A password that bcrypt would cut short is refused when it is chosen
/// (``PasswordAccounts/checkNewPassword(_:username:current:)``) and never matches when it is typed
/// (``PasswordHasher/verify(_:hash:)`` checks it against the decoy hash instead, so it costs the same
/// work as any wrong password).
enum PasswordBytes {
    /// bcrypt reads at most this many bytes.
    static let maximum = 72

    /// Whether `password` holds a control character (Unicode general category Cc: NUL, tab, line
    /// breaks, DEL, the C1 controls). bcrypt stops at NUL, and none of them is typed on purpose.
    static func hasControlCharacters(_ password: String) -> Bool {
        password.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Whether bcrypt sees every byte of `password`: no control character and at most ``maximum`` bytes.
    static func fitsBcrypt(_ password: String) -> Bool {
        password.utf8.count <= maximum && !hasControlCharacters(password)
    }
}
