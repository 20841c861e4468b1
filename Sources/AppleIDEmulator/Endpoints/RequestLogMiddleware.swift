import Hummingbird
import Logging

/// Logs every request at `debug` (`LOG_LEVEL=debug`): method, path, status and duration. Only the
/// path is logged, never the query, headers or body, so no password, code, client secret or token
/// can reach the logs this way.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Above debug (the default), a request costs nothing here: no clock reads, no metadata.
        guard context.logger.logLevel <= .debug else { return try await next(request, context) }
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, status: response.status.code, since: started, logger: context.logger)
            return response
        } catch {
            log(request, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: started, logger: context.logger)
            throw error
        }
    }

    private func log(_ request: Request, status: Int, since started: ContinuousClock.Instant, logger: Logger) {
        let milliseconds = (ContinuousClock.now - started) / .milliseconds(1)
        logger.debug(
            "request",
            metadata: [
                "method": "\(request.method.rawValue)", "path": "\(request.uri.path)", "status": "\(status)",
                "duration_ms": "\((milliseconds * 10).rounded() / 10)",
            ]
        )
    }
}
