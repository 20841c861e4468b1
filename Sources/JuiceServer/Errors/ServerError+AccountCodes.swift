extension ServerError.Code {
    /// The new password is too easy to guess (a common password, contains the username, repetitive,
    /// sequential, or unchanged); the reason says which.
    static let weakPassword = ServerError.Code(rawValue: "weak_password")
    /// The username breaks a rule (length, spaces, invisible or direction-changing characters); the
    /// reason says which.
    static let invalidUsername = ServerError.Code(rawValue: "invalid_username")
    /// The change needs a fresh sign-in (within the last minutes).
    static let reauthenticationRequired = ServerError.Code(rawValue: "reauthentication_required")
}

extension ServerError.Code {
    /// A web sign-in is finished in a browser (or session) other than the one that started it.
    static let browserMismatch = ServerError.Code(rawValue: "browser_mismatch")
}
