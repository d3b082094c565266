import HTTPTypes
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// An instance leaving at a SIGTERM without its clients losing their place: live connections are
/// closed with ``LiveClose/reconnectElsewhere`` (1012) and new ones refused with `503`, so a load
/// balancer sends them to another instance; `/health/ready` answers `503`. Only then does the server
/// stop accepting connections and finish the requests under way (Hummingbird's graceful shutdown).
final class Drain: Sendable {
    private let state = NIOLockedValueBox(State())

    private struct State {
        var draining = false
        var nextID = 0
        var open: [Int: @Sendable () -> Void] = [:]
    }

    /// Whether draining has begun.
    var isDraining: Bool { state.withLockedValue { $0.draining } }

    /// How many live connections are open.
    var openCount: Int { state.withLockedValue { $0.open.count } }

    /// Runs a live connection's `body`, calling `onDrain` once when draining begins meanwhile (at once
    /// if it has already).
    func whileOpen<T>(onDrain: @escaping @Sendable () -> Void, _ body: () async throws -> T) async rethrows -> T {
        let (id, draining) = state.withLockedValue { state in
            state.nextID += 1
            state.open[state.nextID] = onDrain
            return (state.nextID, state.draining)
        }
        if draining { onDrain() }
        defer { _ = state.withLockedValue { $0.open.removeValue(forKey: id) } }
        return try await body()
    }

    /// Begins draining: every open live connection is asked to close.
    func begin() {
        let closing = state.withLockedValue { state in
            state.draining = true
            return Array(state.open.values)
        }
        for close in closing { close() }
    }

    /// Refuses new live connections once draining has begun.
    /// - Throws: ``APIError`` `503` with `Retry-After: 1`.
    func admit() throws {
        guard isDraining else { return }
        var refusal = APIError(
            .serviceUnavailable, .draining, "this instance is stopping; connect again and another one will answer")
        refusal.extraHeaders[.retryAfter] = "1"
        throw refusal
    }

    /// Waits until every live connection has closed, at most `limit`.
    func waitUntilClosed(within limit: Duration) async {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while openCount > 0, clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// The service that drains the instance at a graceful shutdown, placed so it runs before the
/// server's own (``ARVisServer/run(_:logger:)``).
struct DrainService: Service {
    let drain: Drain
    let logger: Logger
    /// How long live connections get to close: 5 s.
    var limit = Duration.seconds(5)

    func run() async {
        // Returns when graceful shutdown begins (throws only when the task is cancelled).
        guard (try? await gracefulShutdown()) != nil else { return }
        let open = drain.openCount
        drain.begin()
        await drain.waitUntilClosed(within: limit)
        logger.info("drained: \(open) live connection(s) asked to reconnect elsewhere, \(drain.openCount) left open")
    }
}

extension LiveClose {
    /// The instance is stopping: the client reconnects (through the load balancer, to another
    /// instance) and resumes where it was. 1012 is WebSocket's "service restart".
    static let reconnectElsewhere = LiveClose(1012, "the server is restarting; reconnect to resume")
}
