import HTTPTypes
import HummingbirdCore

extension Request {
    /// The page language the request's `Accept-Language` asks for (``PageLanguage/preferred(acceptLanguage:)``):
    /// the one way every page of the server and the emulator picks its language.
    package var language: PageLanguage {
        PageLanguage.preferred(acceptLanguage: headers[.acceptLanguage])
    }
}
