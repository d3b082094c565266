import ARVisClient
import ARVisSupport
import ArgumentParser
import Foundation

/// `arvis watch`: prints a spec's updates as the server pushes them.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Follow a spec on an ARVis server and print each version (and dataset rows) as it is saved.",
        discussion: """
            Connects to the spec's live stream (a WebSocket) and prints one line per update: the \
            version, its ETag and the widgets that changed — the ones a device rebuilds. When the \
            connection drops it reconnects (waiting 0.1 s, doubling to 5 s) and resumes after the \
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
        let location = try SpecLocation(url)
        let printed = Counter()
        let (format, count) = (format, count)
        let watcher = LiveSpecWatcher(
            url: location.liveURL, token: Credentials.token(for: location.server), version: version
        ) { reason, delay in
            Console.error("arvis watch: \(location.liveURL): \(reason); reconnecting in \(delay)")
        }
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

/// Counts, from any task.
final class Counter: Sendable {
    private let value = Locked(0)
    /// Adds one; returns the new count.
    func increment() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}
