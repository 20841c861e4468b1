/// An error with a defined answer: the ``ServerError`` (status, code, reason) it becomes at the HTTP
/// edge. Storage and domain errors conform in their own `…+ServerErrorConvertible.swift` file, so the
/// layers that throw them know nothing of HTTP.
protocol ServerErrorConvertible: Error {
    /// The answer to give.
    var serverError: ServerError { get }
}

extension ServerError: ServerErrorConvertible {
    var serverError: ServerError { self }
}
