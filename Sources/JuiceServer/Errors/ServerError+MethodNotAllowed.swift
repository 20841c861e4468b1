extension ServerError.Code {
    /// The path exists but does not answer this method (the answer's `Allow` lists those it does).
    static let methodNotAllowed = Self(rawValue: "method_not_allowed")
}
