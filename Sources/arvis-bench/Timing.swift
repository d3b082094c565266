import Dispatch

/// The median wall time in seconds of each body, after a warm-up. Several bodies take turns, so
/// they see the same machine: on a shared host whose speed drifts, their ratio stays meaningful
/// (a body timed alone keeps its caches warm, which is how a throughput figure is meant).
func medians(_ count: Int, _ bodies: [() -> Void]) -> [Double] {
    for _ in 0..<max(3, count / 10) { for body in bodies { body() } }
    var samples = [[Double]](repeating: [], count: bodies.count)
    for _ in 0..<count {
        for (index, body) in bodies.enumerated() { samples[index].append(seconds(body)) }
    }
    return samples.map { $0.sorted()[count / 2] }
}

func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}
