import Hummingbird

extension Username.Problem: ServerErrorConvertible {
    /// 400 `invalid_username`, with the rule that failed.
    var serverError: ServerError {
        switch self {
        case .length: ServerError(.invalidUsername, status: .badRequest, "a username has 3 to 64 characters")
        case .whitespace: ServerError(.invalidUsername, status: .badRequest, "a username has no spaces")
        case .invisibleOrUnassigned:
            ServerError(
                .invalidUsername, status: .badRequest,
                "a username has no control, invisible or direction-changing characters (such as U+202E or U+034F) and no unassigned code points"
            )
        case .compatibilityForm:
            ServerError(
                .invalidUsername, status: .badRequest,
                "a username has no compatibility forms of letters (such as mathematical, circled or ligature letters): type the plain letters"
            )
        case .symbolOrPunctuation:
            ServerError(
                .invalidUsername, status: .badRequest, "a username has letters, digits and ASCII symbols only (PRECIS IdentifierClass)")
        }
    }
}
