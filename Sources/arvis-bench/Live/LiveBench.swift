import ARVisSpatial
import ARVisSpec
import ARVisSupport
import ArgumentParser
import Foundation
import Histogram
import NIOConcurrencyHelpers

/// `arvis-bench live`: the live streams under load, `arvis serve` (release, in child processes, so
/// its memory is its own) and every client on this machine.
struct LiveBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract:
            "Edit → device, pose fan-out, annotation and live-row latencies of arvis serve's live streams, and a memory soak.",
        discussion: """
            Needs the release `arvis` beside this executable: swift build -c release. With --database, \
            two `arvis serve` instances share one PostgreSQL: writes go through the first and the \
            spec and dataset watchers are on the second (rooms stay on one instance: poses are not \
            relayed between instances). Latencies are HDR-histogram percentiles over every delivery.

            Examples:
              swift build -c release && swift run -c release arvis-bench live
              swift run -c release arvis-bench live --database postgres://postgres@127.0.0.1:5432/postgres
              swift run -c release arvis-bench live --soak 600
            """
    )

    @Option(help: "A PostgreSQL URL: two instances on it instead of one on SQLite.")
    var database: String?

    @Option(help: "WebSocket clients watching the spec for the edit → device run.")
    var clients = 1_000

    @Option(help: "Edits in the edit → device run (one every 200 ms).")
    var edits = 30

    @Option(help: "Rooms, each with one publisher at 60 Hz.")
    var publishers = 10

    @Option(help: "Viewers per room.")
    var viewers = 100

    @Option(help: "Seconds of the pose run.")
    var seconds = 10.0

    @Option(help: "Taps per room in the annotation run (5 a second, poses streaming).")
    var taps = 20

    @Option(help: "Clients watching the dataset of a chart.")
    var watchers = 100

    @Option(help: "Rows appended per second in the live-data run (for --seconds).")
    var appends = 100

    @Option(
        help:
            "Seconds of a soak after the runs (the pose load, a tap a second in every room and --soak-appends rows a second, together), sampling the server's memory every 10 s; 0: none."
    )
    var soak = 0.0

    @Option(help: "Rows appended per second during the soak.")
    var soakAppends = 10

    func validate() throws {
        guard
            [clients, edits, publishers, viewers, taps, watchers, appends, soakAppends].allSatisfy({
                $0 >= 1 && $0 <= 100_000
            })
        else {
            throw ValidationError("counts are 1 to 100 000")
        }
        guard seconds.isFinite, seconds > 0, seconds <= 86_400, soak.isFinite, soak >= 0, soak <= 86_400 else {
            throw ValidationError("--seconds is more than 0 and --soak 0 or more, both at most a day")
        }
    }

    func run() async throws {
        let binary = try ServerProcess.arvisBinary()
        let first = try await ServerProcess.start(binary: binary, database: database)
        let second = database == nil ? first : try await ServerProcess.start(binary: binary, database: database)
        defer {
            first.stop()
            if second !== first { second.stop() }
        }
        let engine = database == nil ? "sqlite" : "postgres"
        print(
            "arvis serve on \(engine)\(database == nil ? "" : " (two instances: writes through one, watchers on the other)"), "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores")
        let session = try await BenchSession.prepare(first.base)

        let edit = try await editToDevice(session, writer: first, watched: second)
        print(String(format: "RESULT live_%@_edit_to_device_p50 %.2f ms", engine, edit.milliseconds(50)))
        print(String(format: "RESULT live_%@_edit_to_device_p99 %.2f ms", engine, edit.milliseconds(99)))
        let rows = try await liveRows(session, writer: first, watched: second, for: seconds, perSecond: appends)
        print(String(format: "RESULT live_%@_rows_p99 %.2f ms", engine, rows.milliseconds(99)))
        let rooms = try await RoomLoad.start(session, server: first, rooms: publishers, viewers: viewers)
        let poses = try await rooms.measurePoses(for: seconds)
        print(String(format: "RESULT live_%@_pose_p50 %.2f ms", engine, poses.latency.milliseconds(50)))
        print(String(format: "RESULT live_%@_pose_p99 %.2f ms", engine, poses.latency.milliseconds(99)))
        print("RESULT live_\(engine)_pose_most_behind \(poses.mostBehind) poses")
        let annotations = try await rooms.measureTaps(taps)
        print(String(format: "RESULT live_%@_annotation_p99 %.2f ms", engine, annotations.milliseconds(99)))
        if soak > 0 { try await soakRun(session, rooms: rooms, writer: first, watched: second, engine: engine) }
        await rooms.stop()
    }

    private func editToDevice(_ session: BenchSession, writer: ServerProcess, watched: ServerProcess) async throws
        -> Latencies
    {
        try await Self.editToDevice(session, clients: clients, edits: edits, writers: [writer], watched: [watched])
    }

    /// `clients` watchers of a spec, spread over `watched`; `edits` saves, through each of `writers`
    /// in turn; every arrival timed from the save's acknowledgement. `connected` runs once every
    /// client holds the first version.
    static func editToDevice(
        _ session: BenchSession, clients: Int, edits: Int, writers: [ServerProcess], watched: [ServerProcess],
        connected: () -> Void = {}
    ) async throws -> Latencies {
        var spec = try session.environment()
        let first = try await session.put(spec, on: writers[0])
        let arrivals = Arrivals()
        var sockets: [BenchSocket] = []
        for (index, server) in watched.enumerated() {
            let share = clients / watched.count + (index < clients % watched.count ? 1 : 0)
            sockets += try await BenchSocket.connectAll(
                share, url: server.webSocketBase + "/live/bench/\(session.tour)", token: session.token
            ) { text, at in
                if let version = Self.version(in: text) { arrivals.record(version, at: at) }
            }
        }
        try await arrivals.wait(forKey: first, count: clients, within: .seconds(120))
        _ = arrivals.take(first)
        connected()
        let latencies = Latencies()
        let fromSend = Latencies()
        for edit in 0..<edits {
            spec = BenchSession.editing(spec, text: "Poster A, edit \(edit)")
            let sent = ContinuousClock.now
            let version = try await session.put(spec, on: writers[edit % writers.count])
            let acknowledged = ContinuousClock.now
            try await arrivals.wait(forKey: version, count: clients, within: .seconds(30))
            for arrival in arrivals.take(version) {
                latencies.record(arrival - acknowledged)
                fromSend.record(arrival - sent)
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        // Arrivals before the acknowledgement count as 0 from it; from the PUT's sending they never do.
        print(
            String(
                format:
                    "edit → device: %d clients on %d instance(s) × %d edits: from the acknowledgement p50 %.2f ms, p99 %.2f ms, max %.2f ms; "
                    + "from sending the PUT p50 %.2f ms, p99 %.2f ms", clients, watched.count, edits,
                latencies.milliseconds(50), latencies.milliseconds(99),
                latencies.milliseconds(100), fromSend.milliseconds(50), fromSend.milliseconds(99)))
        print(String(format: "RESULT live_edit_to_device_from_put_sent_p99 %.2f ms", fromSend.milliseconds(99)))
        await BenchSocket.closeAll(sockets)
        try await Task.sleep(for: .seconds(2))  // the closed connections torn down before the next run
        return latencies
    }

    /// `watchers` clients of a chart following a dataset; rows appended through `writer` at `appends`
    /// a second, each timed from the moment its append was sent.
    private func liveRows(
        _ session: BenchSession, writer: ServerProcess, watched: ServerProcess, for duration: Double,
        perSecond appends: Int
    ) async throws -> Latencies {
        try await session.putChart(on: writer)
        let arrivals = Arrivals()
        let sockets = try await BenchSocket.connectAll(
            watchers, url: watched.webSocketBase + "/live/bench/\(session.hall)", token: session.token
        ) { text, at in
            for mark in Self.marks(in: text) { arrivals.record(mark, at: at) }
        }
        try await Task.sleep(for: .milliseconds(500))
        let latencies = Latencies()
        let total = Int(saturating: duration * Double(appends))
        var sent: [Int: ContinuousClock.Instant] = [:]
        let failed = Marks()
        let start = ContinuousClock.now
        var appending: [Task<Void, Never>] = []
        for index in 0..<total {
            let due = start + .seconds(Double(index) / Double(appends))
            if due > .now { try await Task.sleep(until: due) }
            sent[index + 1] = .now
            appending.append(
                Task {
                    do {
                        try await session.append(
                            #"{"mark": \#(index + 1), "celsius": \#(20 + Double(index % 50) / 10)}"#, on: writer)
                    } catch {
                        failed.insert(index + 1)
                    }
                })
        }
        for task in appending { await task.value }
        let refused = failed.all
        for (mark, at) in sent.sorted(by: { $0.key < $1.key }) where !refused.contains(mark) {
            try await arrivals.wait(forKey: mark, count: watchers, within: .seconds(30))
            for arrival in arrivals.take(mark) { latencies.record(arrival - at) }
        }
        print(
            String(
                format:
                    "live rows: %d appends/s for %.0f s to %d watchers: p50 %.2f ms, p99 %.2f ms, max %.2f ms, %d append(s) failed",
                appends,
                duration, watchers, latencies.milliseconds(50), latencies.milliseconds(99), latencies.milliseconds(100),
                refused.count))
        await BenchSocket.closeAll(sockets)
        try await Task.sleep(for: .seconds(2))
        return latencies
    }

    /// Poses, taps and rows together for `soak` seconds; the server's resident memory every 10 s.
    private func soakRun(
        _ session: BenchSession, rooms: RoomLoad, writer: ServerProcess, watched: ServerProcess, engine: String
    ) async throws {
        print(
            "soak: \(publishers) publishers at 60 Hz to \(viewers) viewers each, a tap a second per room, \(soakAppends) rows/s, for \(Int(saturating: soak)) s"
        )
        let poses = Task { try await rooms.measurePoses(for: soak) }
        let taps = Task { try await rooms.measureTaps(Int(saturating: soak), every: .seconds(1)) }
        let rows = Task {
            try await liveRows(session, writer: writer, watched: watched, for: soak, perSecond: soakAppends)
        }
        var samples: [(Double, Int)] = []
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(soak) {
            try await Task.sleep(for: .seconds(10))
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            let rss = [writer, watched].reduce(0) { $0 + $1.residentKilobytes() }
            samples.append((seconds, rss))
            print(String(format: "soak: %.0f s, server resident %.1f MB", seconds, Double(rss) / 1024))
        }
        _ = try await (poses.value, taps.value, rows.value)
        let baseline = samples.first { $0.0 >= 60 }?.1 ?? samples.first?.1 ?? 0
        let end = samples.last?.1 ?? 0
        let growth = baseline > 0 ? Double(end - baseline) / Double(baseline) * 100 : 0
        print(String(format: "RESULT live_%@_soak_rss_after_1_min %.1f MB", engine, Double(baseline) / 1024))
        print(String(format: "RESULT live_%@_soak_rss_end %.1f MB", engine, Double(end) / 1024))
        print(String(format: "RESULT live_%@_soak_rss_growth %.1f %%", engine, growth))
    }

    /// The `version` of a spec message. Messages are written with sorted keys, so a spec message
    /// ends `"type":"spec","version":N}`: found from the end, without parsing the spec before it.
    private static func version(in text: String) -> Int? {
        guard let range = text.range(of: "\"type\":\"spec\",\"version\":", options: .backwards) else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    /// The `mark` values of a rows message's rows (sorted keys: `…"reset":false,"rows":[…],"type":"rows",…`).
    private static func marks(in text: String) -> [Int] {
        guard text.range(of: "\"type\":\"rows\",\"widgets\":", options: .backwards) != nil,
            !text.contains("\"reset\":true,\"rows\":")
        else { return [] }
        var marks: [Int] = []
        var rest = text[...]
        while let range = rest.range(of: "\"mark\":") {
            rest = rest[range.upperBound...]
            if let mark = Int(rest.prefix { $0.isNumber }) { marks.append(mark) }
        }
        return marks
    }
}

/// Latencies in an HDR histogram (microseconds).
final class Latencies: Sendable {
    private let histogram = NIOLockedValueBox(
        Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three))

    func record(_ duration: Duration) {
        let micros = max(
            0, duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000)
        _ = histogram.withLockedValue { $0.record(UInt64(min(micros, 60_000_000))) }
    }

    func milliseconds(_ percentile: Double) -> Double {
        histogram.withLockedValue {
            percentile >= 100 ? Double($0.max) / 1000 : Double($0.valueAtPercentile(percentile)) / 1000
        }
    }
}

/// When each client got each message, by key (a version, a row mark, a tap).
final class Arrivals: Sendable {
    private let arrivals = NIOLockedValueBox<[Int: [ContinuousClock.Instant]]>([:])

    func record(_ key: Int, at instant: ContinuousClock.Instant) {
        arrivals.withLockedValue { $0[key, default: []].append(instant) }
    }

    /// Waits until `count` arrivals of `key` are in.
    func wait(forKey key: Int, count: Int, within limit: Duration) async throws {
        let deadline = ContinuousClock.now + limit
        while arrivals.withLockedValue({ $0[key]?.count ?? 0 }) < count {
            guard ContinuousClock.now < deadline else {
                throw ValidationError(
                    "only \(arrivals.withLockedValue { $0[key]?.count ?? 0 }) of \(count) clients got message \(key) within \(limit)"
                )
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// The arrivals of `key`, forgotten.
    func take(_ key: Int) -> [ContinuousClock.Instant] {
        arrivals.withLockedValue { $0.removeValue(forKey: key) ?? [] }
    }
}

/// A set of row marks, from any task.
final class Marks: Sendable {
    private let marks = NIOLockedValueBox<Set<Int>>([])
    func insert(_ mark: Int) { _ = marks.withLockedValue { $0.insert(mark) } }
    var all: Set<Int> { marks.withLockedValue { $0 } }
}
