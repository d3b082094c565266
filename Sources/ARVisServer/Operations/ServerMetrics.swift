import HTTPTypes
import Hummingbird
import Metrics
import NIOConcurrencyHelpers
import Prometheus

/// The server's metrics in Prometheus's text format at `/metrics`: requests by route, method and
/// status with their durations, and the hub's renders.
enum ServerMetrics {
    private static let bootstrapped = NIOLockedValueBox(false)

    /// Makes `registry` the process's metrics backend (the first call only: swift-metrics allows one).
    static func bootstrap(_ registry: PrometheusCollectorRegistry) {
        let first = bootstrapped.withLockedValue { done in
            defer { done = true }
            return !done
        }
        if first { MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry)) }
    }

    /// Counts a render the hub's cache did not have.
    static func countRender(_ kind: String) {
        Metrics.Counter(label: "arvis_hub_renders_total", dimensions: [("kind", kind)]).increment()
    }

    /// Records how many live clients (spec streams and room members) this instance serves.
    static func recordLiveClients(_ count: Int) {
        Metrics.Gauge(label: "arvis_live_clients").record(count)
    }

    /// Counts a live connection the server closed, by close code.
    static func countLiveClose(_ code: UInt16) {
        Metrics.Counter(label: "arvis_live_closes_total", dimensions: [("code", String(code))]).increment()
    }

    static func register(_ registry: PrometheusCollectorRegistry, on router: Router<ServerContext>) {
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
    }
}

/// Every request counted by route template, method and status, with its duration (until the
/// response is handed to the server; the body's write is not included), for ``ServerResponder``.
/// The counters and timers are made once per route, method and status.
final class RequestInstruments: Sendable {
    private struct Key: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    /// The methods counted by name; any other (a client may send any token) counts as `other`, so
    /// requests cannot mint new series.
    static let namedMethods: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .patch, .delete, .options]

    /// The `method` label of a request's method.
    static func label(_ method: HTTPRequest.Method) -> String {
        namedMethods.contains(method) ? method.rawValue : "other"
    }

    private struct Instruments: Sendable {
        var counter: Metrics.Counter
        var timer: Metrics.Timer
    }

    private let instruments = NIOLockedValueBox<[Key: Instruments]>([:])

    func record(
        route: String?, method: HTTPRequest.Method, status: HTTPResponse.Status, since start: ContinuousClock.Instant
    ) {
        let elapsed = ContinuousClock.now - start
        let key = Key(route: route ?? "unmatched", method: Self.label(method), status: status.code)
        let found = instruments.withLockedValue { instruments in
            if let found = instruments[key] { return found }
            let dimensions = [("route", key.route), ("method", key.method), ("status", String(key.status))]
            let made = Instruments(
                counter: Metrics.Counter(label: "arvis_http_requests_total", dimensions: dimensions),
                timer: Metrics.Timer(
                    label: "arvis_http_request_duration_seconds", dimensions: dimensions, preferredDisplayUnit: .seconds
                ))
            instruments[key] = made
            return made
        }
        found.counter.increment()
        found.timer.recordNanoseconds(
            elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }
}
