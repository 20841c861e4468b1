import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Logs every request once it is answered — method, route pattern, path, status, duration and
/// request id — and records it in ``ServerMetrics``.
///
/// Nothing secret reaches the log: the query string's values are replaced by `***` (except a few
/// harmless ones such as `notice`), and the headers, logged at debug level only, have
/// `Authorization`, `Cookie`, `Set-Cookie` and anything naming a token or secret redacted. Bodies
/// (which hold passwords, codes and identity tokens) are never logged.
///
/// The request id is the caller's `X-Request-ID` when it is short and plain, otherwise
/// Hummingbird's; it is added to the request's logger and echoed in the response.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let metrics: ServerMetrics
    let time: ContinuousClock

    /// Creates the middleware.
    init(metrics: ServerMetrics) {
        self.metrics = metrics
        self.time = ContinuousClock()
    }

    static let requestIDHeader = HTTPField.Name("X-Request-ID")!
    /// Query parameters whose values are safe to log.
    static let loggableQuery: Set<String> = ["notice", "error", "lang", "response_type", "response_mode"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = time.now
        var context = context
        let requestID = Self.requestID(request.headers[Self.requestIDHeader]) ?? context.id
        context.logger[metadataKey: "request.id"] = .string(requestID)
        let logger = context.logger
        do {
            var response = try await next(request, context)
            response.headers[Self.requestIDHeader] = requestID
            log(request, route: context.endpointPath, status: Int(response.status.code), duration: time.now - start, logger: logger)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log(request, route: context.endpointPath, status: Int(status), duration: time.now - start, logger: logger)
            throw error
        }
    }

    private func log(_ request: Request, route: String?, status: Int, duration: Duration, logger: Logger) {
        let route = route ?? "unmatched"
        let method = request.method.rawValue
        metrics.request(method: method, route: route, status: status, duration: duration)
        var metadata: Logger.Metadata = [
            "http.method": .string(method),
            "http.route": .string(route),
            "http.path": .string(request.uri.path),
            "http.status": .stringConvertible(status),
            "http.duration_ms": .string(duration.millisecondsText),
        ]
        if let query = request.uri.query, !query.isEmpty { metadata["http.query"] = .string(Self.redactedQuery(query)) }
        if logger.logLevel <= .debug { metadata["http.headers"] = .dictionary(Self.redactedHeaders(request.headers)) }
        logger.log(level: status >= 500 ? .error : .info, "request", metadata: metadata)
    }

    /// An incoming request id, if it is 1–64 letters, digits, `-`, `_` or `.`.
    static func requestID(_ value: String?) -> String? {
        guard let value, (1...64).contains(value.utf8.count),
            value.utf8.allSatisfy({ $0.isASCIILetterOrDigit || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") })
        else { return nil }
        return value
    }

    /// `a=1&code=xyz` → `a=***&code=***`, keeping only ``loggableQuery`` values.
    static func redactedQuery(_ query: String) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard parts.count == 2 else { return name }
            return loggableQuery.contains(name) ? "\(name)=\(parts[1].prefix(64))" : "\(name)=***"
        }.joined(separator: "&")
    }

    /// The headers with credentials replaced by `***`.
    static func redactedHeaders(_ headers: HTTPFields) -> Logger.Metadata {
        var result: Logger.Metadata = [:]
        for field in headers {
            let name = field.name.canonicalName
            result[name] = .string(isSecret(name) ? "***" : String(field.value.prefix(200)))
        }
        return result
    }

    static func isSecret(_ name: String) -> Bool {
        let name = name.lowercased()
        return ["authorization", "proxy-authorization", "cookie", "set-cookie"].contains(name)
            || ["token", "secret", "password", "key", "session", "csrf"].contains { name.contains($0) }
    }
}

extension UInt8 {
    fileprivate var isASCIILetterOrDigit: Bool {
        (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
            || (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9"))
    }
}

extension Duration {
    /// Milliseconds with one decimal (`12.3`), without Foundation's `String(format:)` on every request.
    fileprivate var millisecondsText: String {
        let (seconds, attoseconds) = components
        let tenths = max(0, seconds * 10_000 + attoseconds / 100_000_000_000_000)
        return "\(tenths / 10).\(tenths % 10)"
    }
}
