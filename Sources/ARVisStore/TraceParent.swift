public import Tracing

/// The W3C `traceparent` that carries a trace from a request through what it writes to the work it
/// causes elsewhere: an event keeps the one of the request that recorded it, so the fan-out on every
/// instance continues that request's trace. Empty when no tracer is set up (the default).
public enum TraceParent {
    /// The `traceparent` of the span under way in this task; `nil` without one or without a tracer.
    public static var current: String? {
        guard let context = ServiceContext.current else { return nil }
        var carrier: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &carrier, using: HeaderCarrier())
        return carrier["traceparent"]
    }

    /// A context whose spans continue the trace `traceParent` names; a new trace's without one.
    public static func context(continuing traceParent: String?) -> ServiceContext {
        var context = ServiceContext.topLevel
        guard let traceParent else { return context }
        InstrumentationSystem.instrument.extract(["traceparent": traceParent], into: &context, using: HeaderCarrier())
        return context
    }
}

/// Writes and reads trace headers in a dictionary.
private struct HeaderCarrier: Injector, Extractor {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
        carrier[key] = value
    }

    func extract(key: String, from carrier: [String: String]) -> String? {
        carrier[key]
    }
}
