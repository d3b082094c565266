import ARVisSupport
import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NIOCore

/// Debian's `wrk`, run against a URL: requests per second and latency percentiles as it prints them.
struct Wrk {
    /// What one run measured.
    struct Outcome {
        var perSecond: Double
        var p50: Double
        var p99: Double
        var errors: String?
    }

    /// The installed `wrk`, if any.
    static var binary: String? {
        ["/usr/bin/wrk", "/usr/local/bin/wrk"].first(where: FileManager.default.isExecutableFile)
    }

    let binary: String
    var threads = 1
    var connections = 64
    var seconds = 8

    /// One run of `wrk -t1 -c64 -d8s --latency url`.
    func run(_ url: String) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-t\(threads)", "-c\(connections)", "-d\(seconds)s", "--latency", url]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return try Self.parse(output)
    }

    /// Reads `Requests/sec:`, the 50 % and 99 % lines of `Latency Distribution`, and any error lines.
    static func parse(_ output: String) throws -> Outcome {
        var outcome = Outcome(perSecond: 0, p50: 0, p99: 0)
        for line in output.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if line.hasPrefix("Requests/sec:"), parts.count == 2, let value = Double(parts[1]) {
                outcome.perSecond = value
            } else if parts.count == 2, parts[0] == "50%" || parts[0] == "99%", let value = milliseconds(parts[1]) {
                if parts[0] == "50%" { outcome.p50 = value } else { outcome.p99 = value }
            } else if line.hasPrefix("Non-2xx") || line.hasPrefix("Socket errors") {
                outcome.errors = (outcome.errors.map { $0 + "; " } ?? "") + line
            }
        }
        guard outcome.perSecond > 0 else { throw ValidationError("wrk printed no Requests/sec:\n\(output)") }
        return outcome
    }

    /// `123.45us`, `1.23ms` or `1.02s` in milliseconds.
    private static func milliseconds(_ text: Substring) -> Double? {
        for (unit, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0)] where text.hasSuffix(unit) {
            return Double(text.dropLast(unit.count)).map { $0 * scale }
        }
        return nil
    }

    /// `rounds` runs, each printed; the median run by requests per second.
    func median(_ what: String, _ url: String, rounds: Int) throws -> Outcome {
        var outcomes: [Outcome] = []
        for _ in 0..<max(1, rounds) {
            let outcome = try run(url)
            print(
                String(
                    format: "wrk %@: %.0f req/s, p50 %.2f ms, p99 %.2f ms", what, outcome.perSecond, outcome.p50,
                    outcome.p99)
                    + (outcome.errors.map { ", \($0)" } ?? ""))
            outcomes.append(outcome)
        }
        return outcomes.sorted { $0.perSecond < $1.perSecond }[outcomes.count / 2]
    }
}

extension ServeBench {
    /// The hub measured as other people measure it: `arvis serve` (release, in its own process, its
    /// default log line per request written to a file) and nginx (access log on) serving the same
    /// spec and the same widget PNG, and a minimal Hummingbird server answering the spec's bytes
    /// from memory (the framework's ceiling on this machine), each driven by `wrk`.
    func wrkComparison(folder: URL) async throws {
        guard let binary = Wrk.binary else {
            print("wrk is not installed (apt-get install wrk): the wrk comparison is skipped")
            return
        }
        let arvis = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("arvis").path
        guard FileManager.default.isExecutableFile(atPath: arvis) else {
            print("no arvis binary beside arvis-bench (swift build -c release --product arvis): wrk comparison skipped")
            return
        }
        let wrk = Wrk(
            binary: binary, connections: connections, seconds: Int(saturating: min(3_600, max(1, seconds.rounded()))))
        let port = try await Self.freePort()
        let data = folder.appendingPathComponent("wrk-data")
        let log = folder.appendingPathComponent("arvis-serve.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: arvis)
        server.arguments = ["serve", "--data", data.path, "--port", String(port)]
        server.standardError = try FileHandle(forWritingTo: log)
        server.standardOutput = server.standardError
        try server.run()
        defer { server.terminate() }
        let base = "http://127.0.0.1:\(port)"
        try await Self.waitUntilAnswering(base + "/health")
        _ = try await Self.prepare(base)
        let png = try await Self.send("GET", base + "/s/bench/chart/widgets/1.png")
        let spec = try await Self.send("GET", base + "/s/bench/chart.json")
        let hub = try wrk.median("arvis hub spec GET", base + "/s/bench/chart.json", rounds: rounds)
        let widget = try wrk.median(
            "arvis cached widget PNG GET", base + "/s/bench/chart/widgets/1.png", rounds: rounds)
        server.terminate()
        let hello = try await helloRun(wrk, body: spec)
        guard let nginx = try await nginxWrkRun(wrk, folder: folder, spec: spec, png: png) else { return }
        print(String(format: "RESULT hub_wrk_rps %.0f req/s", hub.perSecond))
        print(String(format: "RESULT hub_wrk_p99 %.2f ms", hub.p99))
        print(String(format: "RESULT widget_png_wrk_rps %.0f req/s", widget.perSecond))
        print(String(format: "RESULT nginx_spec_wrk_rps %.0f req/s", nginx.spec.perSecond))
        print(String(format: "RESULT nginx_spec_wrk_p99 %.2f ms", nginx.spec.p99))
        print(String(format: "RESULT nginx_png_wrk_rps %.0f req/s", nginx.png.perSecond))
        print(String(format: "RESULT hummingbird_hello_wrk_rps %.0f req/s", hello.perSecond))
        print(String(format: "RESULT hub_vs_nginx_wrk %.2f x", hub.perSecond / nginx.spec.perSecond))
        print(String(format: "RESULT widget_png_vs_nginx %.2f x", widget.perSecond / nginx.png.perSecond))
        print(String(format: "RESULT hub_vs_hummingbird_hello %.2f x", hub.perSecond / hello.perSecond))
        print(String(format: "RESULT hummingbird_hello_vs_nginx %.2f x", hello.perSecond / nginx.spec.perSecond))
    }

    /// A Hummingbird 2 server with one route answering `body` from memory, default logging (a
    /// logger at info, no log line per request): the framework's own ceiling.
    private func helloRun(_ wrk: Wrk, body: Data) async throws -> Wrk.Outcome {
        let port = try await Self.freePort()
        let router = Router()
        let bytes = ByteBuffer(bytes: body)
        router.get("/s/bench/chart.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: bytes))
        }
        var logger = Logger(label: "hello")
        logger.logLevel = .warning
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
        let task = Task { try await app.runService() }
        defer { task.cancel() }
        try await Self.waitUntilAnswering("http://127.0.0.1:\(port)/s/bench/chart.json")
        return try wrk.median(
            "Hummingbird hello (same bytes)", "http://127.0.0.1:\(port)/s/bench/chart.json", rounds: rounds)
    }

    /// nginx (access log on) serving the spec and the PNG as files.
    private func nginxWrkRun(_ wrk: Wrk, folder: URL, spec: Data, png: Data) async throws
        -> (spec: Wrk.Outcome, png: Wrk.Outcome)?
    {
        guard
            let nginx = try await Nginx.start(
                in: folder.appendingPathComponent("nginx-wrk"),
                files: ["s/bench/chart.json": spec, "s/bench/chart/widgets/1.png": png], accessLog: true)
        else { return nil }
        defer { nginx.process.terminate() }
        let base = "http://127.0.0.1:\(nginx.port)"
        return (
            try wrk.median("nginx spec GET", base + "/s/bench/chart.json", rounds: rounds),
            try wrk.median("nginx PNG GET", base + "/s/bench/chart/widgets/1.png", rounds: rounds)
        )
    }
}

/// nginx serving files from a folder on a free loopback port, for scale.
enum Nginx {
    /// Writes `files` (by path) under `root`, starts nginx (`worker_processes auto`, the access log
    /// on or off) and waits until it answers; `nil`, said on standard output, without nginx.
    static func start(in root: URL, files: [String: Data], accessLog: Bool) async throws
        -> (process: Process, port: Int)?
    {
        guard let binary = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile)
        else {
            print("nginx is not installed (apt-get install nginx): comparison skipped")
            return nil
        }
        for (path, data) in files {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
        }
        let port = try await ServeBench.freePort()
        let log = accessLog ? "access_log \(root.path)/access.log;" : "access_log off;"
        let configuration = """
            worker_processes auto; daemon off; pid \(root.path)/nginx.pid; error_log \(root.path)/error.log;
            events { worker_connections 1024; }
            http { \(log) keepalive_requests 100000000; types { application/json json; image/png png; }
              server { listen 127.0.0.1:\(port); root \(root.path); } }
            """
        try configuration.write(to: root.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-c", root.appendingPathComponent("nginx.conf").path, "-p", root.path]
        try process.run()
        guard let first = files.keys.sorted().first else { return (process, port) }
        do {
            try await ServeBench.waitUntilAnswering("http://127.0.0.1:\(port)/\(first)")
        } catch {
            process.terminate()
            throw error
        }
        return (process, port)
    }
}
