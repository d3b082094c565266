import ARVisServer
import ARVisStore
import ARVisSupport
import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `arvis-bench serve`: the server under load on loopback, server and load generator on this
/// machine together, against nginx serving the same spec as a static file.
struct ServeBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract:
            "Requests per second and latency percentiles of arvis serve on loopback (SQLite, or PostgreSQL with --database), and nginx for scale.",
        discussion: """
            The server runs in this process (its own event loops); the load generator is a SwiftNIO \
            client on one more thread, closed-loop: each connection sends again as soon as an answer \
            ends. Percentiles come from an HDR histogram of every request.

            Then, as other people measure it, Debian's wrk (-t1 -c64, --latency) drives `arvis serve` \
            (the release binary beside this one, in its own process, logging a line per request) and \
            nginx (access log on) serving the same spec and widget PNG, and a minimal Hummingbird \
            server answering the spec's bytes from memory: the framework's ceiling here.

            Examples:
              swift run -c release arvis-bench serve
              swift run -c release arvis-bench serve --database postgres://postgres@127.0.0.1:5432/bench
            """
    )

    @Option(help: "A PostgreSQL URL to store in instead of SQLite.")
    var database: String?

    @Option(help: "Connections for the GET runs.")
    var connections = 64

    @Option(help: "Seconds per run.")
    var seconds = 5.0

    @Option(help: "Runs of each load; the median run (by requests per second) is reported.")
    var rounds = 3

    @Flag(help: "Skip the nginx comparison.")
    var noNginx = false

    @Flag(help: "Skip the wrk comparison (arvis serve, nginx and a minimal Hummingbird server under wrk).")
    var noWrk = false

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "arvis-bench-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store =
            if let database { try await Store.open(postgres: database) } else {
                try await Store.open(sqliteAt: folder.appendingPathComponent("arvis.sqlite").path)
            }
        let port = try await Self.freePort()
        var logger = Logger(label: "arvis-bench")
        logger.logLevel = .error
        let app = try ARVisServer.application(
            ServerConfiguration(dataDirectory: folder.path, port: port, passwordCost: 4), store: store, logger: logger)
        let server = Task { try await app.runService() }
        defer { server.cancel() }
        let base = "http://127.0.0.1:\(port)"
        try await Self.waitUntilAnswering(base + "/health")
        let token = try await Self.prepare(base)
        let clientGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let load = LoadGenerator(host: "127.0.0.1", port: port, group: clientGroup)
        let engine = database == nil ? "sqlite" : "postgres"
        print(
            "arvis serve on \(engine), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(connections) connections, \(rounds) runs of \(seconds) s each"
        )

        let spec = try await measure("hub spec GET (cached)", load, .init(path: "/s/bench/chart.json"), connections)
        let png = try await measure(
            "cached widget PNG GET", load, .init(path: "/s/bench/chart/widgets/1.png"), connections)
        let big = Self.bigSpec()
        let put = try await measure(
            "PUT of a \(big.count / 1000) KB spec", load,
            .init(
                method: .PUT, path: "/api/v1/projects/bench/specs/big",
                headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")], body: big),
            Self.specChecksPerClient)
        let firstRender = try await firstRenders(load, base: base, token: token)
        print(String(format: "RESULT serve_%@_hub_spec_rps %.0f req/s", engine, spec.perSecond))
        print(String(format: "RESULT serve_%@_hub_spec_p99 %.2f ms", engine, spec.milliseconds(atPercentile: 99)))
        print(String(format: "RESULT serve_%@_widget_png_rps %.0f req/s", engine, png.perSecond))
        print(String(format: "RESULT serve_%@_widget_png_p99 %.2f ms", engine, png.milliseconds(atPercentile: 99)))
        print(String(format: "RESULT serve_%@_put_180kb_rps %.0f req/s", engine, put.perSecond))
        print(String(format: "RESULT serve_%@_put_180kb_p99 %.2f ms", engine, put.milliseconds(atPercentile: 99)))
        print(String(format: "RESULT serve_%@_first_render_png %.2f ms", engine, firstRender))
        if !noNginx, let nginx = try await nginxRun(folder: folder, group: clientGroup) {
            print(String(format: "RESULT nginx_static_spec_rps %.0f req/s", nginx.perSecond))
            print(String(format: "RESULT nginx_static_spec_p99 %.2f ms", nginx.milliseconds(atPercentile: 99)))
            print(String(format: "RESULT serve_%@_hub_over_nginx %.2f x", engine, spec.perSecond / nginx.perSecond))
        }
        try await clientGroup.shutdownGracefully()
        await store.close()
        if !noWrk { try await wrkComparison(folder: folder) }
    }

    /// How many spec checks the server runs at once for one client (`ARVisAPI.specChecks`): the
    /// PUT load uses as many connections, so it measures saves, not refusals.
    static let specChecksPerClient = 8

    /// `rounds` runs of a load, reported: requests per second, p50, p99 and any status other than 2xx
    /// of each; the median run (by requests per second) is returned.
    private func measure(_ what: String, _ load: LoadGenerator, _ request: LoadGenerator.Request, _ connections: Int)
        async throws -> LoadGenerator.Outcome
    {
        _ = try await load.run(request, connections: 1, seconds: 0)  // warm: caches filled, connections tried
        var outcomes: [LoadGenerator.Outcome] = []
        for _ in 0..<max(1, rounds) {
            let outcome = try await load.run(request, connections: connections, seconds: seconds)
            let failures = outcome.statuses.filter { !(200..<300).contains($0.key) }
            print(
                String(
                    format: "%@: %.0f req/s (2xx), p50 %.2f ms, p99 %.2f ms, %d requests", what, outcome.perSecond,
                    outcome.milliseconds(atPercentile: 50), outcome.milliseconds(atPercentile: 99), outcome.requests)
                    + (failures.isEmpty ? "" : ", statuses \(failures)"))
            outcomes.append(outcome)
        }
        return outcomes.sorted { $0.perSecond < $1.perSecond }[outcomes.count / 2]
    }

    /// The median time of a widget PNG's first request after a save: the render, nothing cached.
    private func firstRenders(_ load: LoadGenerator, base: String, token: String) async throws -> Double {
        let chart = try String(
            contentsOf: Self.examples.appendingPathComponent("laptop-benchmark-bar-chart.json"), encoding: .utf8)
        var times: [Double] = []
        for run in 0..<21 {
            // A different score each time, so the content (and the cache key) is new.
            let body = chart.replacingOccurrences(of: "7508", with: String(7508 + run + 1))
            try await Self.send(
                "PUT", base + "/api/v1/projects/bench/specs/fresh", body: Data(body.utf8), token: token,
                type: "application/json")
            let outcome = try await load.run(.init(path: "/s/bench/fresh/widgets/1.png"), connections: 1, seconds: 0)
            times.append(outcome.milliseconds(atPercentile: 50))
        }
        let median = times.sorted()[times.count / 2]
        print(
            String(
                format: "first render of the README bar chart as PNG (2x): median %.2f ms of %d", median, times.count))
        return median
    }

    /// The same spec served as a static file by nginx (access log off), under the same load; `nil` without nginx.
    private func nginxRun(folder: URL, group: any EventLoopGroup) async throws -> LoadGenerator.Outcome? {
        let spec = try Data(contentsOf: Self.examples.appendingPathComponent("laptop-benchmark-bar-chart.json"))
        guard
            let nginx = try await Nginx.start(
                in: folder.appendingPathComponent("nginx"), files: ["s/bench/chart.json": spec], accessLog: false)
        else { return nil }
        defer { nginx.process.terminate() }
        let load = LoadGenerator(host: "127.0.0.1", port: nginx.port, group: group)
        return try await measure("nginx static spec GET", load, .init(path: "/s/bench/chart.json"), connections)
    }

    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples")

    /// A valid bar chart of about 180 KB: the README's chart with 6 600 bars.
    static func bigSpec() -> [UInt8] {
        let rows = 0..<6_600
        let labels = rows.map { "\"Laptop model \($0)\"" }.joined(separator: ", ")
        let scores = rows.map { String(5_000 + ($0 * 7_919) % 9_000) }.joined(separator: ", ")
        return Array(
            """
            {"dataSources": [{"label": "default", "data": {"Laptop": [\(labels)], "Score": [\(scores)]}}],
             "components": [{"type": "BarMark", "config": {"x": {"field": "Score"}, "y": {"field": "Laptop"}}}]}
            """.utf8)
    }

    /// Signs up and in, creates the public project `bench` and saves the README's chart as `chart`; returns the token.
    static func prepare(_ base: String) async throws -> String {
        let credentials = Data(#"{"username": "bench", "password": "benchmark password"}"#.utf8)
        // A database kept from an earlier run (PostgreSQL) has the account and the project already.
        _ = try? await send("POST", base + "/api/v1/accounts", body: credentials, type: "application/json")
        let session = try await send("POST", base + "/api/v1/sessions", body: credentials, type: "application/json")
        guard let token = try JSONDecoder().decode(JSONValue.self, from: session)["token"]?.string else {
            throw ValidationError("no token from the server")
        }
        _ = try? await send(
            "POST", base + "/api/v1/projects", body: Data(#"{"name": "Bench", "visibility": "public"}"#.utf8),
            token: token,
            type: "application/json")
        try await send(
            "PUT", base + "/api/v1/projects/bench/specs/chart",
            body: try Data(contentsOf: examples.appendingPathComponent("laptop-benchmark-bar-chart.json")),
            token: token, type: "application/json")
        return token
    }

    @discardableResult
    static func send(
        _ method: String, _ url: String, body: Data? = nil, token: String? = nil, type: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> Data {
        guard let target = URL(string: url) else { throw ValidationError("bad URL \(url)") }
        var request = URLRequest(url: target)
        request.httpMethod = method
        request.httpBody = body
        if let type { request.setValue(type, forHTTPHeaderField: "Content-Type") }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let status = (response as? HTTPURLResponse)?.statusCode, status < 300 else {
            throw ValidationError("\(method) \(url) answered \(String(decoding: data, as: UTF8.self))")
        }
        return data
    }

    static func waitUntilAnswering(_ url: String) async throws {
        for _ in 0..<200 {
            if (try? await send("GET", url)) != nil { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ValidationError("\(url) did not answer within 10 s")
    }

    /// A loopback port nothing listens on.
    static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(
            host: "127.0.0.1", port: 0
        ).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        guard port > 0 else { throw ValidationError("no free port") }
        return port
    }
}
