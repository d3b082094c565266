import ARVisSpatial
import ARVisSupport
import ArgumentParser
import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOWebSocket

/// `arvis serve` in a child process on a free loopback port, with its own data folder.
final class ServerProcess: Sendable {
    let port: Int
    private let process: Process
    private let folder: URL

    var base: String { "http://127.0.0.1:\(port)" }
    var webSocketBase: String { "ws://127.0.0.1:\(port)" }

    private init(process: Process, port: Int, folder: URL) {
        self.process = process
        self.port = port
        self.folder = folder
    }

    /// The `arvis` built beside this `arvis-bench`.
    /// - Throws: `ValidationError` when it is not there.
    static func arvisBinary() throws -> String {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("arvis").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw ValidationError(
                "no arvis beside arvis-bench at \(binary): build it first with swift build -c release")
        }
        return binary
    }

    /// Starts `arvis serve` on `database` (SQLite when `nil`) with more `arguments`, waiting until it answers.
    static func start(binary: String, database: String?, arguments: [String] = []) async throws -> ServerProcess {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "arvis-bench-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let port = try await ServeBench.freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        // The bench's clients are one account's, many to a room: the limits a server keeps against
        // one account's abuse are set past them.
        let limits = ["--live-connections-per-account", "100000"]
        process.arguments =
            ["serve", "--data", folder.path, "--port", String(port)] + limits
            + (database.map { ["--database", $0] } ?? []) + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let server = ServerProcess(process: process, port: port, folder: folder)
        try await ServeBench.waitUntilAnswering(server.base + "/health")
        return server
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The process's resident memory (`VmRSS`), in kilobytes.
    func residentKilobytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

/// The account, project and names of one bench run (names are new each run, so a PostgreSQL
/// database kept between runs starts each spec, dataset and room afresh).
struct BenchSession: Sendable {
    let token: String
    let run = String(UUID().uuidString.prefix(8)).lowercased()

    static func prepare(_ base: String) async throws -> BenchSession {
        BenchSession(token: try await ServeBench.prepare(base))
    }

    var tour: String { "tour-\(run)" }
    var hall: String { "hall-\(run)" }
    var dataset: String { "sensor-\(run)" }

    func environment() throws -> [String: JSONValue] {
        let data = try Data(contentsOf: ServeBench.examples.appendingPathComponent("two-targets-environment.json"))
        guard let object = try JSONDecoder().decode(JSONValue.self, from: data).object else {
            throw ValidationError("the example is not an object")
        }
        return object
    }

    /// The example with its first widget's text replaced.
    static func editing(_ spec: [String: JSONValue], text: String) -> [String: JSONValue] {
        var spec = spec
        var targets = spec["imageTrackingConfigurations"]?.array ?? []
        var target = targets.first?.object ?? [:]
        var relationships = target["relationships"]?.array ?? []
        var relationship = relationships.first?.object ?? [:]
        var configuration = relationship["widgetConfiguration"]?.object ?? [:]
        configuration["component"] = ["text": ["content": .string(text)]]
        relationship["widgetConfiguration"] = .object(configuration)
        if !relationships.isEmpty { relationships[0] = .object(relationship) }
        target["relationships"] = .array(relationships)
        if !targets.isEmpty { targets[0] = .object(target) }
        spec["imageTrackingConfigurations"] = .array(targets)
        return spec
    }

    /// Saves `spec` as the run's tour; returns its version.
    @discardableResult
    func put(_ spec: [String: JSONValue], on server: ServerProcess) async throws -> Int {
        let answer = try await ServeBench.send(
            "PUT", server.base + "/api/v1/projects/bench/specs/\(tour)",
            body: try JSONEncoder().encode(spec),
            token: token, type: "application/json")
        return Int(try JSONDecoder().decode(JSONValue.self, from: answer)["version"]?.number ?? 0)
    }

    /// Saves a chart following the run's dataset, keeping its last 200 rows.
    func putChart(on server: ServerProcess) async throws {
        let chart = """
            {"imageTrackingConfigurations": [{"imageURL": "https://example.org/hall.jpg", "relationships": [{"widgetConfiguration": {
              "relativeAnchorPoint": "top", "relativePosition": [0, 0, 0], "component": {"chart": {
                "dataSources": [{"label": "default", "data": {"mark": [], "celsius": []}, "dataset": {"name": "\(dataset)", "rows": 200}}],
                "components": [{"type": "LineMark", "config": {"x": {"field": "mark"}, "y": {"field": "celsius"}}}]}}}}]}]}
            """
        try await ServeBench.send(
            "PUT", server.base + "/api/v1/projects/bench/specs/\(hall)", body: Data(chart.utf8), token: token,
            type: "application/json")
    }

    func append(_ row: String, on server: ServerProcess) async throws {
        try await ServeBench.send(
            "POST", server.base + "/api/v1/projects/bench/datasets/\(dataset)/rows", body: Data(row.utf8), token: token,
            type: "application/x-ndjson")
    }
}

/// One WebSocket client of the bench: every message handed to callbacks with its arrival instant.
final class BenchSocket: Sendable {
    private let outbound = NIOLockedValueBox<WebSocketOutboundWriter?>(nil)
    private let connection = NIOLockedValueBox<Task<Void, Never>?>(nil)

    /// Connects; `onText` and `onBinary` run for every message, on the client's tasks.
    static func connect(
        _ url: String, token: String, onText: @escaping @Sendable (String, ContinuousClock.Instant) -> Void,
        onBinary: @escaping @Sendable (ByteBuffer, ContinuousClock.Instant) -> Void = { _, _ in }
    ) -> BenchSocket {
        let socket = BenchSocket()
        var configuration = WebSocketClientConfiguration(maxFrameSize: 64 << 20)
        configuration.additionalHeaders[.authorization] = "Bearer \(token)"
        var logger = Logger(label: "arvis-bench-live")
        logger.logLevel = .critical
        let task = Task { [configuration, logger] in
            _ = try? await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) {
                inbound, outbound, _ in
                socket.outbound.withLockedValue { $0 = outbound }
                for try await message in inbound.messages(maxSize: 16 << 20) {
                    switch message {
                    case .text(let text): onText(text, .now)
                    case .binary(let bytes): onBinary(bytes, .now)
                    }
                }
            }
        }
        socket.connection.withLockedValue { $0 = task }
        return socket
    }

    /// `count` clients of `url`, connected 100 at a time; returns once every one is connected.
    static func connectAll(
        _ count: Int, url: String, token: String, onText: @escaping @Sendable (String, ContinuousClock.Instant) -> Void
    ) async throws -> [BenchSocket] {
        var sockets: [BenchSocket] = []
        while sockets.count < count {
            let batch = (0..<min(100, count - sockets.count)).map { _ in connect(url, token: token, onText: onText) }
            for socket in batch { try await socket.waitUntilConnected() }
            sockets += batch
        }
        return sockets
    }

    func waitUntilConnected() async throws {
        for _ in 0..<30_000 {
            if outbound.withLockedValue({ $0 }) != nil { return }
            try await Task.sleep(for: .milliseconds(1))
        }
        throw ValidationError("a WebSocket client did not connect within 30 s")
    }

    func send(_ text: String) async throws {
        try await outbound.withLockedValue { $0 }?.write(.text(text))
    }

    func send(_ bytes: ByteBuffer) async throws {
        try await outbound.withLockedValue { $0 }?.write(.binary(bytes))
    }

    func close() async {
        try? await outbound.withLockedValue { $0 }?.close(.normalClosure, reason: nil)
        await connection.withLockedValue { $0 }?.value
    }

    static func closeAll(_ sockets: [BenchSocket]) async {
        await withTaskGroup(of: Void.self) { group in
            for socket in sockets { group.addTask { await socket.close() } }
        }
    }
}

/// Rooms with a publisher streaming poses at 60 Hz and viewers; the first viewer of each also taps.
final class RoomLoad: Sendable {
    private struct Pose: Sendable {
        var latestFrame: [UInt32]
        var measuring = false
        var mostBehind = 0
    }

    private let publishers: [any Channel]
    /// Each room's first viewer, which also taps.
    private let tappers: [any Channel]
    /// The other viewers: lean clients handling frames on the event loop.
    private let viewers: [any Channel]
    private let viewersPerRoom: Int
    private let epoch: ContinuousClock.Instant
    private let poses: NIOLockedValueBox<Pose>
    private let poseLatencies: NIOLockedValueBox<Latencies>
    private let taps = Arrivals()
    /// The last tap's number, also its client id: started at random, so a run on a PostgreSQL
    /// database kept from an earlier run does not repeat an id the server already holds (it would
    /// answer with the stored annotation and send nothing).
    private let tapCount = NIOLockedValueBox(Int.random(in: 0..<1 << 40))
    private let streaming = NIOLockedValueBox<Task<Void, any Error>?>(nil)

    private init(
        publishers: [any Channel], tappers: [any Channel], viewers: [any Channel], viewersPerRoom: Int,
        epoch: ContinuousClock.Instant
    ) {
        self.publishers = publishers
        self.tappers = tappers
        self.viewers = viewers
        self.viewersPerRoom = viewersPerRoom
        self.epoch = epoch
        poses = NIOLockedValueBox(Pose(latestFrame: Array(repeating: 0, count: publishers.count)))
        poseLatencies = NIOLockedValueBox(Latencies())
    }

    static func start(_ session: BenchSession, server: ServerProcess, rooms: Int, viewers: Int) async throws -> RoomLoad
    {
        let epoch = ContinuousClock.now
        let state = Shared()
        var publishers: [any Channel] = []
        var tappers: [any Channel] = []
        var channels: [any Channel] = []
        for room in 0..<rooms {
            let path = "/live/bench/rooms/room-\(session.run)-\(room)"
            let onFrame: @Sendable (WebSocketFrame, ContinuousClock.Instant) -> Void = { frame, at in
                switch frame.opcode {
                case .binary: state.load?.received(frame.data, room: room, at: at)
                case .text:
                    let text = String(buffer: frame.data)
                    if text.hasSuffix("\"type\":\"annotation\"}"), let key = Self.tapKey(in: text) {
                        state.load?.taps.record(key, at: at)
                    }
                default: break
                }
            }
            let group = MultiThreadedEventLoopGroup.singleton
            publishers.append(
                try await FrameClient.connect(
                    port: server.port, path: path + "?role=publisher", token: session.token, group: group,
                    onFrame: onFrame))
            tappers.append(
                try await FrameClient.connect(
                    port: server.port, path: path, token: session.token, group: group, onFrame: onFrame))
            for _ in 1..<max(1, viewers) {
                channels.append(
                    try await FrameClient.connect(
                        port: server.port, path: path, token: session.token, group: group, onFrame: onFrame))
            }
        }
        let load = RoomLoad(
            publishers: publishers, tappers: tappers, viewers: channels, viewersPerRoom: viewers, epoch: epoch)
        state.set(load)
        load.streaming.withLockedValue { $0 = Task { try await load.stream() } }
        try await Task.sleep(for: .milliseconds(500))
        return load
    }

    /// Holds the load for the callbacks made before it existed.
    private final class Shared: Sendable {
        private let value = NIOLockedValueBox<RoomLoad?>(nil)
        var load: RoomLoad? { value.withLockedValue { $0 } }
        func set(_ load: RoomLoad) { value.withLockedValue { $0 = load } }
    }

    /// Every publisher sends a pose every 1/60 s, stamped with the time it was sent.
    private func stream() async throws {
        var frame: UInt32 = 0
        let start = ContinuousClock.now
        while !Task.isCancelled {
            frame += 1
            let due = start + .seconds(Double(frame) / 60)
            if due > .now { try await Task.sleep(until: due) }
            let stamp = (ContinuousClock.now - epoch) / .seconds(1)
            let packet = PosePacket(
                frameID: frame, timestamp: stamp, position: SIMD3(0, 1.5, 0), orientation: .identity,
                intrinsics: SIMD4(500, 500, 320, 240), viewport: SIMD2(640, 480))
            let bytes = ByteBuffer(bytes: packet.encoded())
            poses.withLockedValue { state in for index in state.latestFrame.indices { state.latestFrame[index] = frame }
            }
            for publisher in publishers { FrameClient.send(bytes, text: false, on: publisher) }
        }
    }

    private func received(_ bytes: ByteBuffer, room: Int, at arrival: ContinuousClock.Instant) {
        guard let packet = try? bytes.withUnsafeReadableBytes({ try PosePacket(decoding: $0) }) else { return }
        let measuring = poses.withLockedValue { state -> Bool in
            guard state.measuring else { return false }
            state.mostBehind = max(state.mostBehind, Int(state.latestFrame[room]) - Int(packet.frameID))
            return true
        }
        if measuring { poseLatencies.withLockedValue { $0 }.record(arrival - (epoch + .seconds(packet.timestamp))) }
    }

    /// Pose latencies over `duration`, and the most poses any viewer was behind its publisher.
    func measurePoses(for duration: Double) async throws -> (latency: Latencies, mostBehind: Int) {
        let latencies = Latencies()
        poseLatencies.withLockedValue { $0 = latencies }
        poses.withLockedValue {
            $0.measuring = true
            $0.mostBehind = 0
        }
        try await Task.sleep(for: .seconds(duration))
        let mostBehind = poses.withLockedValue { state -> Int in
            state.measuring = false
            return state.mostBehind
        }
        print(
            String(
                format:
                    "poses: %d publishers at 60 Hz, %d viewers each, %.0f s: p50 %.2f ms, p99 %.2f ms, max %.2f ms, at most %d pose(s) behind",
                publishers.count, viewersPerRoom, duration, latencies.milliseconds(50), latencies.milliseconds(99),
                latencies.milliseconds(100), mostBehind))
        return (latencies, mostBehind)
    }

    /// `count` taps in every room (by its first viewer, every `interval`), each timed to every member of its room.
    func measureTaps(_ count: Int, every interval: Duration = .milliseconds(200)) async throws -> Latencies {
        let latencies = Latencies()
        for _ in 0..<count {
            var sent: [Int: ContinuousClock.Instant] = [:]
            for tapper in tappers {
                let key = tapCount.withLockedValue {
                    $0 += 1
                    return $0
                }
                sent[key] = .now
                FrameClient.send(
                    ByteBuffer(string: #"{"type": "annotate", "tap": [0.5, 0.5], "clientId": "k\#(key)"}"#), text: true,
                    on: tapper)
            }
            for (key, at) in sent {
                try await taps.wait(forKey: key, count: viewersPerRoom + 1, within: .seconds(10))
                for arrival in taps.take(key) { latencies.record(arrival - at) }
            }
            try await Task.sleep(for: interval)
        }
        print(
            String(
                format: "annotations: %d taps in each of %d rooms to %d members: p50 %.2f ms, p99 %.2f ms, max %.2f ms",
                count, tappers.count,
                viewersPerRoom + 1, latencies.milliseconds(50), latencies.milliseconds(99), latencies.milliseconds(100))
        )
        return latencies
    }

    func stop() async {
        streaming.withLockedValue { $0?.cancel() }
        for channel in publishers + tappers + viewers { try? await channel.close() }
    }

    private static func tapKey(in text: String) -> Int? {
        guard let range = text.range(of: "\"clientId\":\"k") else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }
}
