public import ARVisSupport
import PostgresNIO
import SQLKit
import Synchronization

/// Messages between the server instances that share a PostgreSQL store: what is not stored but
/// must reach every instance at once (who is in a room, WebRTC signalling, a device's poses).
/// They ride PostgreSQL's `NOTIFY`, like the event log's sequence numbers; on SQLite there is one
/// instance, and nothing to send.
extension Store {
    /// The PostgreSQL channel broadcasts travel on.
    static let broadcastChannel = "arvis_broadcasts"
    /// The longest broadcast, in UTF-8 bytes (PostgreSQL's `NOTIFY` takes 8 000).
    public static let maximumBroadcastBytes = 7_900

    /// Whether other instances may share this store (PostgreSQL): only then do broadcasts travel.
    public var isShared: Bool { engine == .postgres }

    /// Sends `message` to every instance's ``broadcasts()`` (this one's too); nothing on SQLite.
    /// - Throws: ``StoreError`` `invalid` for a message over ``maximumBroadcastBytes``, `unavailable`
    ///   when PostgreSQL cannot take it.
    public func broadcast(_ message: String) async throws(StoreError) {
        guard isShared else { return }
        guard message.utf8.count <= Self.maximumBroadcastBytes else {
            throw StoreError(.invalid, "a broadcast is at most \(Self.maximumBroadcastBytes) bytes")
        }
        try await withDatabase { database in
            try await database.raw("SELECT pg_notify(\(bind: Store.broadcastChannel), \(bind: message))").run()
        }
    }

    /// Every message broadcast from now on, by any instance, in the order PostgreSQL delivers them.
    /// The stream ends when the store closes; on SQLite, nothing comes.
    public func broadcasts() -> AsyncStream<String> {
        broadcastFeed.subscribe()
    }
}

/// Hands each broadcast to every subscriber of ``Store/broadcasts()``.
final class BroadcastFeed: Sendable {
    private let subscribers = Mutex<
        (next: Int, continuations: [Int: AsyncStream<String>.Continuation], closed: Bool)
    >((0, [:], false))

    func subscribe() -> AsyncStream<String> {
        // A subscriber that falls far behind loses the oldest: these are live messages, not a log.
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let id: Int? = subscribers.withLock { state in
            guard !state.closed else { return nil }
            state.next += 1
            state.continuations[state.next] = continuation
            return state.next
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func deliver(_ message: String) {
        for continuation in subscribers.withLock({ Array($0.continuations.values) }) { continuation.yield(message) }
    }

    func close() {
        let continuations = subscribers.withLock { state in
            state.closed = true
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}

/// Follows PostgreSQL's broadcast notifications on one connection of the pool, and reconnects with
/// back-off when it drops (what was broadcast meanwhile is lost: broadcasts are live only).
enum BroadcastListener {
    static func run(_ store: Store, client: PostgresClient) async {
        var delay = Duration.milliseconds(100)
        while !Task.isCancelled {
            let started = ContinuousClock.now
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Store.broadcastChannel) { notifications in
                        for try await notification in notifications {
                            store.broadcastFeed.deliver(notification.payload)
                        }
                    }
                }
            } catch {
                if Task.isCancelled { break }
            }
            if ContinuousClock.now - started > .seconds(30) { delay = .milliseconds(100) }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(5))
        }
    }
}
