import ARVisStore
import Testing

@testable import ARVisServer

/// Traces are off unless a collector is named; a named one must be an http(s) base URL.
struct TracingTests {
    @Test func tracesAreOffUnlessACollectorIsNamed() {
        var configuration = ServerConfiguration(dataDirectory: "unused")
        #expect(!ServerTracing.isOn(configuration, environment: [:]))
        #expect(!ServerTracing.isOn(configuration, environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": ""]))
        #expect(ServerTracing.isOn(configuration, environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"]))
        #expect(ServerTracing.isOn(configuration, environment: ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c/t"]))
        configuration.traceEndpoint = "http://collector:4318"
        #expect(ServerTracing.isOn(configuration, environment: [:]))
    }

    @Test func aCollectorIsAnHTTPBaseURL() {
        #expect(ServerConfiguration.traceEndpointProblem("http://collector:4318") == nil)
        #expect(ServerConfiguration.traceEndpointProblem("https://otel.example/base/") == nil)
        for bad in ["collector:4318", "file:///etc/passwd", "http://", "http://c:4318/?token=1", "javascript:alert(1)"]
        {
            #expect(ServerConfiguration.traceEndpointProblem(bad) != nil, "\(bad)")
        }
    }

    @Test func withoutATracerNoEventCarriesATraceParent() {
        #expect(TraceParent.current == nil)
    }
}
