import Hummingbird
import JuiceInfrastructure
import Logging

/// Turns every error into a proper answer: JSON `{"error", "reason"}` under `/api/`, a friendly
/// localized page elsewhere. Unexpected errors become `internal_error` and are logged by type only
/// (their text might hold personal data), never shown.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let pages: PageRenderer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch is SignInRedirect {
            return Response.seeOther(SignInRedirect().location)
        } catch {
            let serverError = Self.serverError(for: error, logger: context.logger)
            if Self.wantsJSON(request) { return serverError.jsonResponse() }
            var page = pages.errorPage(serverError, language: request.language)
            page.headers.append(contentsOf: serverError.headers)
            return page
        }
    }

    /// Machine-facing routes outside `/api/` (Apple's notifications, the loopback bridge's start, the
    /// JSON documents browsers and password managers read).
    static let jsonPaths: Set<String> = [
        "/apple/notifications", "/auth/apple/native", "/.well-known/webauthn", "/.well-known/passkey-endpoints",
    ]

    /// Whether the request is an API call (answered in JSON).
    static func wantsJSON(_ request: Request) -> Bool {
        request.uri.path.hasPrefix("/api/") || request.uri.path == "/api" || jsonPaths.contains(request.uri.path)
    }

    static func serverError(for error: any Error, logger: Logger) -> ServerError {
        switch error {
        case let error as any ServerErrorConvertible:
            return error.serverError
        case let error as any HTTPResponseError:
            switch error.status {
            case .notFound: return .notFound()
            case .contentTooLarge: return .invalidRequest("the request body is too large")
            case .methodNotAllowed: return ServerError(.invalidRequest, status: .methodNotAllowed, "this method is not allowed here")
            case let status where status.code < 500: return ServerError(.invalidRequest, status: status, "the request could not be understood")
            default:
                logger.error("request failed", metadata: ["error.type": "\(type(of: error))", "status": "\(error.status.code)"])
                return .internalError()
            }
        default:
            logger.error("request failed", metadata: ["error.type": "\(type(of: error))"])
            return .internalError()
        }
    }
}
