import Metrics
import Prometheus

/// The server's Prometheus metrics, rendered by `GET /metrics`.
///
/// Labels are bounded: route patterns, status codes, methods, outcomes and error codes — never a
/// user id, token or address.
///
/// - `juice_sign_ins_total{method, outcome}`: sign-ins (outcome `success`, `cancelled` or an error code);
/// - `juice_identity_token_failures_total{code}`: identity tokens refused, by verification error code;
/// - `juice_apple_request_duration_seconds{endpoint, outcome}`: calls to Apple (keys, token, revoke, …);
/// - `juice_queued_revocations`: revocations waiting for Apple, read at scrape time;
/// - `juice_mail_total{outcome}`: mail delivery attempts (`sent`, `refused`, `retried`, `failed`, `suppressed`);
/// - `juice_http_requests_total{method, route, status}` and `juice_http_request_duration_seconds{method, route}`.
///
/// A process that serves one app uses ``shared`` and ``bootstrapMetricsSystem()`` so swift-metrics
/// users elsewhere in the process land in the same registry; tests give each app its own.
public struct ServerMetrics: Sendable {
    /// Where every metric lives.
    public let registry: PrometheusCollectorRegistry

    /// The process's metrics (what `juice serve` exposes).
    public static let shared = ServerMetrics()

    /// Metrics in `registry` (a new, empty one by default).
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
    }

    /// A swift-metrics factory writing into ``registry``.
    var factory: any MetricsFactory { PrometheusMetricsFactory(registry: registry) }

    /// Sign-in counters on this registry.
    var signIns: SignInMetrics { SignInMetrics(factory: factory) }

    /// Makes swift-metrics write into ``shared`` (once per process; later calls do nothing).
    public static func bootstrapMetricsSystem() {
        _ = bootstrapOnce
    }

    private static let bootstrapOnce: Void = {
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: shared.registry))
    }()

    /// Buckets for calls that cross the network (seconds).
    static let latencyBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
        .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]

    /// Counts one identity token refused with verification error `code`.
    func identityTokenRefused(code: String) {
        registry.makeCounter(descriptor: Self.identityTokenFailures, labels: [("code", code)]).increment()
    }

    /// Records one call to Apple.
    /// - Parameters:
    ///   - endpoint: `keys`, `token`, `revoke`, `migration` … (a fixed word, not a URL).
    ///   - outcome: `ok` or an error code.
    ///   - duration: How long it took.
    func appleCall(endpoint: String, outcome: String, duration: Duration) {
        registry.makeDurationHistogram(
            descriptor: Self.appleRequestDuration, labels: [("endpoint", endpoint), ("outcome", outcome)], buckets: Self.latencyBuckets
        ).record(duration)
    }

    /// Times `call` as a call to Apple's `endpoint`; errors are recorded by `errorCode` and rethrown.
    func timingAppleCall<Result: Sendable, Failure: Error>(
        endpoint: String, errorCode: (Failure) -> String = { _ in "error" }, _ call: () async throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        let start = ContinuousClock.now
        do {
            let result = try await call()
            appleCall(endpoint: endpoint, outcome: "ok", duration: ContinuousClock.now - start)
            return result
        } catch {
            appleCall(endpoint: endpoint, outcome: errorCode(error), duration: ContinuousClock.now - start)
            throw error
        }
    }

    /// Sets the number of revocations waiting for Apple.
    func setQueuedRevocations(_ count: Int) {
        registry.makeGauge(descriptor: Self.queuedRevocations).set(Double(count))
    }

    /// Counts one mail delivery attempt by its outcome.
    func mail(outcome: String) {
        registry.makeCounter(descriptor: Self.mailDeliveries, labels: [("outcome", outcome)]).increment()
    }

    /// Records one answered HTTP request.
    func request(method: String, route: String, status: Int, duration: Duration) {
        registry.makeCounter(descriptor: Self.httpRequests, labels: [("method", method), ("route", route), ("status", String(status))])
            .increment()
        registry.makeDurationHistogram(
            descriptor: Self.httpRequestDuration, labels: [("method", method), ("route", route)], buckets: Self.latencyBuckets
        )
        .record(duration)
    }

    static var identityTokenFailures: MetricNameDescriptor {
        juice("identity_token_failures", unit: "total", "Identity tokens refused, by verification error code.")
    }
    static var appleRequestDuration: MetricNameDescriptor {
        juice("apple_request_duration", unit: "seconds", "Calls to Apple, by endpoint and outcome.")
    }
    static var queuedRevocations: MetricNameDescriptor { juice("queued_revocations", unit: "", "Token revocations waiting for Apple.") }
    static var mailDeliveries: MetricNameDescriptor {
        juice("mail", unit: "total", "Mail delivery attempts by outcome (sent, refused, retried, failed, suppressed).")
    }
    static var httpRequests: MetricNameDescriptor { juice("http_requests", unit: "total", "Answered requests by method, route and status.") }
    static var httpRequestDuration: MetricNameDescriptor {
        juice("http_request_duration", unit: "seconds", "Request durations by method and route.")
    }

    /// A metric in the `juice` namespace.
    private static func juice(_ name: String, unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "juice", metricName: name, unitName: unit, helpText: help)
    }

    /// The Prometheus text exposition of every metric.
    func render() -> String {
        registry.emitToString()
    }
}
