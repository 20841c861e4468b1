import Hummingbird
import JuiceInfrastructure

extension ServerError {
    /// The reason in `language`: the pages' own words for this code, or the English reason when they have none.
    func localizedReason(_ language: PageLanguage) -> String {
        PageStrings.table(language)["error_" + code.rawValue] ?? reason
    }

    /// `{"error", "reason"}` with the reason in `language`, for a page's script (its headers kept).
    func localizedJSONResponse(language: PageLanguage) -> Response {
        var localized = ServerError(code, status: status, localizedReason(language))
        localized.headers = headers
        return localized.jsonResponse()
    }
}
