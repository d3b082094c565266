import ARVisModel
import ARVisSupport
import ArgumentParser
import Foundation

/// `arvis-bench upload`: the server's resident memory while a large model is uploaded to the gallery,
/// and while it is then processed (summary, thumbnails, conversion).
struct UploadBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract:
            "Upload a large GLB (about 200 MB) to arvis serve in a child process; report its resident memory growth during the upload and during processing."
    )

    @Option(help: "Triangles of the uploaded model (7 000 000 make a GLB of about 196 MB).")
    var triangles = 7_000_000

    func run() async throws {
        let binary = try ServerProcess.arvisBinary()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "arvis-bench-upload-\(UUID().uuidString).glb")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(try GLBWriter().write(ModelsBench.sphere(triangles: triangles, textureSide: 256))).write(to: file)
        let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        let server = try await ServerProcess.start(binary: binary, database: nil)
        defer { server.stop() }
        let token = try await ServeBench.prepare(server.base)
        let before = server.residentKilobytes()
        let body = try Data(contentsOf: file, options: .alwaysMapped)
        let sampler = PeakSampler(server)
        let start = Date()
        let answer = try await ServeBench.send(
            "POST", server.base + "/api/v1/projects/bench/assets?name=Large", body: body, token: token,
            type: "model/gltf-binary")
        let uploadSeconds = Date().timeIntervalSince(start)
        let uploadPeak = sampler.stop()
        guard let id = try JSONDecoder().decode(JSONValue.self, from: answer)["id"]?.string else {
            throw ValidationError("no asset id")
        }
        let processing = PeakSampler(server)
        let status = try await Self.processed(id, on: server.base, token: token)
        let processSeconds = Date().timeIntervalSince(start) - uploadSeconds
        let processPeak = processing.stop()
        let megabytes = { (kilobytes: Int) in Double(kilobytes) / 1024 }
        print(
            String(
                format:
                    "uploaded %.1f MB (%d triangles) in %.2f s; server memory %.1f MB before, %.1f MB at most during the upload (target: growth < 64 MB)",
                Double(size) / 1_000_000, triangles, uploadSeconds, megabytes(before), megabytes(uploadPeak)))
        print(
            String(
                format: "processed (%@) in %.1f s; server memory at most %.1f MB while processing", status,
                processSeconds, megabytes(processPeak)))
        print(String(format: "RESULT upload_file_mb %.1f MB", Double(size) / 1_000_000))
        print(String(format: "RESULT upload_rss_growth_mb %.1f MB", megabytes(max(0, uploadPeak - before))))
        print(String(format: "RESULT upload_seconds %.2f s", uploadSeconds))
        print(String(format: "RESULT processing_rss_growth_mb %.1f MB", megabytes(max(0, processPeak - before))))
        print(String(format: "RESULT processing_seconds %.1f s", processSeconds))
    }
}

/// Samples a server's resident memory every 10 ms on a thread of its own and keeps the peak.
final class PeakSampler: Sendable {
    private let state = Locked((peak: 0, running: true))

    init(_ server: ServerProcess) {
        Thread { [self] in
            while isRunning {
                record(server.residentKilobytes())
                Thread.sleep(forTimeInterval: 0.01)
            }
        }.start()
    }

    private var isRunning: Bool { state.value.running }

    private func record(_ kilobytes: Int) { state.withLock { $0.peak = max($0.peak, kilobytes) } }

    /// Stops sampling; returns the peak in kilobytes.
    func stop() -> Int {
        state.withLock { state in
            state.running = false
            return state.peak
        }
    }
}

extension UploadBench {
    /// Waits until the asset `id` of the bench project on `base` is processed; its status
    /// (`ready` or `failed`).
    static func processed(_ id: String, on base: String, token: String) async throws -> String {
        while true {
            try await Task.sleep(for: .milliseconds(100))
            let asset = try await ServeBench.send("GET", base + "/api/v1/projects/bench/assets/\(id)", token: token)
            let status = try JSONDecoder().decode(JSONValue.self, from: asset)["status"]?.string ?? "failed"
            if status != "processing" { return status }
        }
    }
}
