import Hummingbird
import Metrics
import Prometheus
import Synchronization

/// The server's metrics in Prometheus's text format at `/metrics`: requests by route, status and
/// duration (Hummingbird's metrics middleware), and the hub's renders.
enum ServerMetrics {
    private static let bootstrapped = Mutex(false)

    /// Makes `registry` the process's metrics backend (the first call only: swift-metrics allows one).
    static func bootstrap(_ registry: PrometheusCollectorRegistry) {
        let first = bootstrapped.withLock { done in
            defer { done = true }
            return !done
        }
        if first { MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry)) }
    }

    /// Counts a render the hub's cache did not have.
    static func countRender(_ kind: String) {
        Counter(label: "arvis_hub_renders_total", dimensions: [("kind", kind)]).increment()
    }

    static func register(_ registry: PrometheusCollectorRegistry, on router: Router<ServerContext>) {
        router.middlewares.add(MetricsMiddleware())
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
    }
}
