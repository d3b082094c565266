import ArgumentParser
import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOCore
import NIOWebSocket

/// `arvis watch`: prints a spec's updates as the server pushes them.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Follow a spec on an ARVis server and print each version (and dataset rows) as it is saved.",
        discussion: """
            Connects to the spec's live stream (a WebSocket) and prints one line per update: the
            version, its ETag and the widgets that changed — the ones a device rebuilds. When the
            connection drops it reconnects (waiting 0.1 s, doubling to 5 s) and resumes after the
            version it holds, so no update is missed. Stops on Ctrl-C, or after --count updates.

            Examples:
              arvis watch http://127.0.0.1:8080/s/museum/tour
              arvis watch http://127.0.0.1:8080/s/museum/tour --format json --count 1
            """
    )

    /// How updates are printed.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "The spec's URL: …/s/PROJECT/NAME, …/live/PROJECT/NAME or …/api/v1/projects/PROJECT/specs/NAME.")
    var url: String

    @Option(help: "text: one line per update; json: each message as the server sent it, one per line.")
    var format: Format = .text

    @Option(help: "Stop after this many updates (the first is the current version).")
    var count: Int?

    @Option(help: "The version you hold: the first update then carries only what changed since.")
    var version: Int?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count is 1 or more") }
        if let version, version < 1 { throw ValidationError("--version counts from 1") }
    }

    func run() async throws {
        let location = try CLIExit.reporting { try SpecLocation(url) }
        let printed = Counter()
        let (format, count) = (format, count)
        let watcher = LiveSpecWatcher(
            location: location, token: Credentials.token(for: location.server), version: version)
        try await watcher.run { update in
            switch format {
            case .json: try Console.write(update.json + "\n")
            case .text: try Console.write(update.summary + "\n")
            }
            let total = printed.increment()
            return count.map { total < $0 } ?? true
        }
    }
}

/// One message of a live spec stream, read.
struct LiveUpdate: Sendable {
    /// The message as the server sent it.
    var json: String
    /// `spec`, `rows` or `deleted`.
    var type: String
    /// A spec message's version and ETag.
    var version: Int?
    var etag: String?
    /// A spec message's changed and removed widgets; a rows message's widgets.
    var changed: [String] = [], removed: [String] = [], widgets: [String] = []
    /// A rows message's dataset, how many rows it holds, the last one's sequence number, and whether
    /// it replaces what the client holds.
    var dataset: String?
    var rowCount = 0
    var lastRow: Int?
    var reset = false

    init?(_ text: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let type = object["type"] as? String
        else {
            return nil
        }
        json = text
        self.type = type
        version = object["version"] as? Int
        etag = object["etag"] as? String
        changed = object["changed"] as? [String] ?? []
        removed = object["removed"] as? [String] ?? []
        widgets = object["widgets"] as? [String] ?? []
        dataset = object["dataset"] as? String
        let rows = object["rows"] as? [[String: Any]] ?? []
        rowCount = rows.count
        lastRow = rows.compactMap { $0["seq"] as? Int }.max()
        reset = object["reset"] as? Bool ?? false
    }

    /// One line for a person.
    var summary: String {
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

/// Follows a spec's live stream: reconnects with back-off and resumes after the version and rows
/// it holds. Stops when `receive` returns `false`, or with an error when the server refuses access.
struct LiveSpecWatcher {
    var location: SpecLocation
    var token: String?
    var version: Int?

    func run(_ receive: @escaping @Sendable (LiveUpdate) async throws -> Bool) async throws {
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
                    url: location.liveURL + cursor.query, configuration: configuration, logger: logger
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
                Console.error("arvis watch: \(location.liveURL): \(error); reconnecting in \(delay)")
                try await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(5))
                continue
            }
            if finished.isSet { return }
            // Refused, or access revoked while watching (4003): reconnecting would be refused too.
            if let close, close.closeCode == .policyViolation || close.closeCode == .unknown(4003) {
                Console.error("error: the server refused the stream: \(close.reason ?? "no reason given")")
                throw CLIExit.usage.exitCode
            }
            delay = close?.closeCode == .unknown(4000) ? .milliseconds(100) : min(delay * 2, .seconds(5))
            try await Task.sleep(for: delay)
        }
    }
}

/// Where a watcher is in the stream.
final class LiveCursor: @unchecked Sendable {
    private let lock = NSLock()
    private var version: Int?
    private var rows: [String: Int] = [:]

    init(version: Int?) { self.version = version }

    func advance(with update: LiveUpdate) {
        lock.withLock {
            if update.type == "spec", let number = update.version { version = number }
            if update.type == "deleted" { version = nil }
            if update.type == "rows", let dataset = update.dataset, let last = update.lastRow {
                rows[dataset] = max(rows[dataset] ?? 0, last)
            }
        }
    }

    /// `?version=N&rows=name:seq,…`, or nothing before the first update.
    var query: String {
        lock.withLock {
            var items: [String] = []
            if let version { items.append("version=\(version)") }
            if !rows.isEmpty {
                items.append(
                    "rows=" + rows.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ","))
            }
            return items.isEmpty ? "" : "?" + items.joined(separator: "&")
        }
    }
}

/// Counts, from any task.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    /// Adds one; returns the new count.
    func increment() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}

/// Set once, read after.
final class FinishFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
