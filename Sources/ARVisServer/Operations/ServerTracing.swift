import Foundation
import Logging
import OTel
import ServiceLifecycle
import Synchronization
import Tracing

/// OpenTelemetry traces for `arvis serve`, off unless a collector is named: a span per request
/// (Hummingbird's `TracingMiddleware`, which continues a caller's W3C `traceparent`), per database
/// call, and per live fan-out of an event on every instance (continuing the trace of the request
/// that recorded it, see `TraceParent`).
enum ServerTracing {
    /// The variables that name a collector without ``ServerConfiguration/traceEndpoint``.
    static let endpointVariables = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]

    /// Whether traces are on for `configuration` in `environment`.
    static func isOn(_ configuration: ServerConfiguration, environment: [String: String]) -> Bool {
        configuration.traceEndpoint != nil || endpointVariables.contains { environment[$0]?.isEmpty == false }
    }

    /// Sets up the process's tracer exporting over OTLP/HTTP when traces are on, and returns the
    /// service that batches and sends the spans (flushing them at shutdown); `nil` when off. The
    /// `OTEL_*` variables override what `configuration` says, as the OpenTelemetry specification asks.
    /// - Throws: when a process's tracer was set up already, or the OTel configuration is refused.
    static func bootstrap(
        _ configuration: ServerConfiguration, environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger
    ) throws -> (any Service)? {
        guard isOn(configuration, environment: environment) else { return nil }
        guard !bootstrapped.exchange(true, ordering: .relaxed) else {
            throw TracingSetupError(message: "traces are set up once per process")
        }
        var otel = OTel.Configuration.default
        otel.serviceName = "arvis"
        otel.logs.enabled = false
        otel.metrics.enabled = false
        otel.diagnosticLogger = .custom(logger)
        otel.traces.otlpExporter.protocol = .httpProtobuf
        if let endpoint = configuration.traceEndpoint {
            // As OTEL_EXPORTER_OTLP_ENDPOINT: a base URL the signal's path is added to.
            otel.traces.otlpExporter.endpoint = (endpoint.hasSuffix("/") ? endpoint : endpoint + "/") + "v1/traces"
        }
        let backend = try OTel.makeTracingBackend(configuration: otel)
        InstrumentationSystem.bootstrap(backend.factory)
        logger.info("traces: sending spans over OTLP to \(configuration.traceEndpoint ?? "the OTEL_* endpoint")")
        return backend.service
    }

    private static let bootstrapped = Atomic(false)
}

/// Traces could not be set up.
struct TracingSetupError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
