extension RefreshTokenCipherError: ServerErrorConvertible {
    /// Always a 500: a stored token that does not open is the server's problem, never the client's.
    var serverError: ServerError { .internalError() }
}
