import ARVisSupport
public import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOCore
import NIOWebSocket

/// One message of a live spec stream (`/live/PROJECT/NAME`), read.
public struct LiveUpdate: Sendable {
    /// The message as the server sent it.
    public var json: String
    /// `spec`, `rows` or `deleted`.
    public var type: String
    /// A spec message's version.
    public var version: Int?
    /// A spec message's ETag.
    public var etag: String?
    /// A spec message's changed widgets: the ones a device rebuilds.
    public var changed: [String]
    /// A spec message's removed widgets.
    public var removed: [String]
    /// A rows message's widgets (the ones that follow the dataset).
    public var widgets: [String]
    /// A rows message's dataset.
    public var dataset: String?
    /// How many rows a rows message holds.
    public var rowCount: Int
    /// The sequence number of a rows message's last row.
    public var lastRow: Int?
    /// Whether a rows message replaces the rows the client holds (the window on connect).
    public var reset: Bool

    /// The fields of a message this reads.
    private struct Message: Decodable {
        struct Row: Decodable { var seq: Int? }
        var type: String
        var version: Int?
        var etag: String?
        var changed: [String]?
        var removed: [String]?
        var widgets: [String]?
        var dataset: String?
        var rows: [Row]?
        var reset: Bool?
    }

    /// Reads a text message; `nil` when it is not a live message.
    public init?(_ text: String) {
        guard let message = try? JSONDecoder().decode(Message.self, from: Data(text.utf8)) else { return nil }
        json = text
        type = message.type
        version = message.version
        etag = message.etag
        changed = message.changed ?? []
        removed = message.removed ?? []
        widgets = message.widgets ?? []
        dataset = message.dataset
        rowCount = message.rows?.count ?? 0
        lastRow = message.rows?.compactMap(\.seq).max()
        reset = message.reset ?? false
    }

    /// One line for a person.
    public var summary: String {
        switch type {
        case "spec":
            return "version \(version ?? 0) (ETag \(etag ?? "?")): "
                + (changed.isEmpty ? "no widget changed" : "changed \(changed.joined(separator: ", "))")
                + (removed.isEmpty ? "" : "; removed \(removed.joined(separator: ", "))")
        case "rows":
            return
                "rows of \(dataset ?? "?"): \(rowCount)\(reset ? " (window)" : " new") for \(widgets.joined(separator: ", "))"
        case "deleted": return "deleted"
        default: return type
        }
    }
}

/// Follows a spec's live stream: reconnects with back-off (0.1 s doubling to 5 s) and resumes after
/// the version and rows it holds, so no update is missed.
///
/// ```swift
/// let watcher = LiveSpecWatcher(url: "ws://127.0.0.1:8080/live/museum/tour", token: token)
/// try await watcher.run { update in print(update.summary); return true }
/// ```
public struct LiveSpecWatcher: Sendable {
    /// The stream's URL (`ws://…/live/PROJECT/NAME`), without a query.
    public var url: String
    /// The bearer token sent with each connection.
    public var token: String?
    /// The version the caller holds: the first update then carries only what changed since.
    public var version: Int?
    /// Told why the connection dropped, before each reconnection.
    public var reconnecting: @Sendable (_ reason: String, _ delay: Duration) -> Void

    /// Creates a watcher; nothing connects until ``run(_:)``.
    public init(
        url: String, token: String? = nil, version: Int? = nil,
        reconnecting: @escaping @Sendable (_ reason: String, _ delay: Duration) -> Void = { _, _ in }
    ) {
        self.url = url
        self.token = token
        self.version = version
        self.reconnecting = reconnecting
    }

    /// The server closed the stream and would refuse it again: no access, or access revoked while
    /// watching.
    public struct Refused: Error, Sendable, CustomStringConvertible {
        /// The reason the server gave, when it gave one.
        public var reason: String?
        /// What a person reads.
        public var description: String { "the server refused the stream: \(reason ?? "no reason given")" }
    }

    /// Delivers each update to `receive` until it returns `false`.
    /// - Throws: ``Refused`` when the server refuses access; `CancellationError` when the task is cancelled.
    public func run(_ receive: @escaping @Sendable (LiveUpdate) async throws -> Bool) async throws {
        let cursor = LiveCursor(version: version)
        var delay = Duration.milliseconds(100)
        var logger = Logger(label: "arvis.watch")
        logger.logLevel = .critical
        while true {
            var configuration = WebSocketClientConfiguration(maxFrameSize: 64 << 20)
            if let token { configuration.additionalHeaders[.authorization] = "Bearer \(token)" }
            let finished = FinishFlag()
            let close: WebSocketCloseFrame?
            do {
                close = try await WebSocketClient.connect(
                    url: url + cursor.query, configuration: configuration, logger: logger
                ) { inbound, outbound, _ in
                    for try await message in inbound.messages(maxSize: 64 << 20) {
                        guard case .text(let text) = message, let update = LiveUpdate(text) else { continue }
                        cursor.advance(with: update)
                        if try await !receive(update) {
                            finished.set()
                            try await outbound.close(.normalClosure, reason: nil)
                            return
                        }
                    }
                }
            } catch {
                try Task.checkCancellation()
                reconnecting("\(error)", delay)
                try await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(5))
                continue
            }
            if finished.isSet { return }
            // Refused, or access revoked while watching (4003): reconnecting would be refused too.
            if let close, close.closeCode == .policyViolation || close.closeCode == .unknown(4003) {
                throw Refused(reason: close.reason)
            }
            delay = close?.closeCode == .unknown(4000) ? .milliseconds(100) : min(delay * 2, .seconds(5))
            try await Task.sleep(for: delay)
        }
    }
}

/// Where a watcher is in the stream: the version and each dataset's last row it holds.
final class LiveCursor: Sendable {
    private struct Position {
        var version: Int?
        var rows: [String: Int] = [:]
    }

    private let position: Locked<Position>

    init(version: Int?) { position = Locked(Position(version: version)) }

    func advance(with update: LiveUpdate) {
        position.withLock { position in
            if update.type == "spec", let number = update.version { position.version = number }
            if update.type == "deleted" { position.version = nil }
            if update.type == "rows", let dataset = update.dataset, let last = update.lastRow {
                position.rows[dataset] = max(position.rows[dataset] ?? 0, last)
            }
        }
    }

    /// `?version=N&rows=name:seq,…`, or nothing before the first update.
    var query: String {
        let position = position.value
        var items: [String] = []
        if let version = position.version { items.append("version=\(version)") }
        if !position.rows.isEmpty {
            items.append(
                "rows="
                    + position.rows.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ","))
        }
        return items.isEmpty ? "" : "?" + items.joined(separator: "&")
    }
}

/// Set once, read after.
private final class FinishFlag: Sendable {
    private let value = Locked(false)
    func set() { value.value = true }
    var isSet: Bool { value.value }
}
