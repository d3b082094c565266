import NIOConcurrencyHelpers
import NIOCore

/// A token bucket: `rate` messages a second on average, `burst` at once.
///
/// A live connection's messages are read one after another, but the bucket is shared with the tasks
/// that may look at it, so it keeps its state behind a lock.
final class MessageRate: Sendable {
    /// The average messages a second allowed.
    let rate: Double
    /// The most messages allowed at once, after a quiet spell.
    let burst: Double
    private let state: NIOLockedValueBox<(tokens: Double, last: NIODeadline)>

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
        state = NIOLockedValueBox((burst, .now()))
    }

    /// Takes one message from the bucket; `false` when the sender is over its rate.
    func take(now: NIODeadline = .now()) -> Bool {
        state.withLockedValue { state in
            let elapsed = Double((now - state.last).nanoseconds) / 1e9
            state.tokens = min(burst, state.tokens + max(0, elapsed) * rate)
            state.last = now
            guard state.tokens >= 1 else { return false }
            state.tokens -= 1
            return true
        }
    }
}

/// Token buckets by key, such as an account: the least recently used keys are forgotten past
/// `capacity` of them (a forgotten key starts again with a full bucket).
final class RateBuckets: Sendable {
    /// The average takes a second allowed per key.
    let rate: Double
    /// The most takes allowed at once per key.
    let burst: Double
    private let buckets: NIOLockedValueBox<LRUCache<String, MessageRate>>

    init(rate: Double, burst: Double, capacity: Int) {
        self.rate = rate
        self.burst = burst
        buckets = NIOLockedValueBox(LRUCache(capacity: capacity, weightCapacity: capacity))
    }

    /// Takes one from `key`'s bucket; `false` when `key` is over its rate.
    func take(_ key: String, now: NIODeadline = .now()) -> Bool {
        let bucket = buckets.withLockedValue { buckets in
            if let bucket = buckets.value(for: key) { return bucket }
            let bucket = MessageRate(rate: rate, burst: burst)
            buckets.insert(bucket, weight: 1, for: key)
            return bucket
        }
        return bucket.take(now: now)
    }
}

/// What one room member may send: its text messages (signals, marks, annotations, planting) and,
/// for a publisher, its poses.
struct MemberRates: Sendable {
    /// Text messages: 50 a second, 200 at once (a WebRTC negotiation's candidates come in a burst).
    static let textsPerSecond = 50.0
    /// Poses: 120 a second (twice a 60 Hz device's), 120 at once.
    static let posesPerSecond = 120.0

    let texts = MessageRate(rate: textsPerSecond, burst: 200)
    let poses = MessageRate(rate: posesPerSecond, burst: 120)

    /// The close for a member over its text rate.
    static let tooManyTexts = LiveClose(
        1008, "more than \(Int(textsPerSecond)) messages a second: slow down and reconnect")
}
