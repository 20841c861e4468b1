extension ServerError.Code {
    /// The passkey to remove is the account's last way to sign in (no password, no Apple ID, no other passkey).
    static let lastSignInMethod = ServerError.Code(rawValue: "last_sign_in_method")
}
