import ARVisSpec
import ArgumentParser
import Foundation

/// `arvis-bench`: release-mode benchmarks that print medians and `RESULT name value unit` lines.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "arvis-bench",
        abstract: "ARVis benchmarks. Run in release mode: swift run -c release arvis-bench load",
        subcommands: [Load.self]
    )
}

/// Loading (read + validate) a spec against Foundation's JSONSerialization parsing the same bytes.
struct Load: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Time reading + validating the largest corpus spec, and JSONSerialization parsing the same bytes.")

    @Option(help: "The spec to load (default: the largest JSON file under ../shared/corpus).")
    var file: String?

    @Option(help: "Timed repetitions of each measurement.")
    var iterations = 300

    func run() throws {
        let path = try file ?? Self.largestCorpusFile()
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let check = SpecReader.read(json: data, file: path)
        guard check.document != nil else {
            throw ValidationError("\(path) does not load: \(check.diagnostics.first.map(String.init(describing:)) ?? "")")
        }
        let load = medians(iterations, [{ _ = SpecReader.read(json: data, file: path) }])[0]
        let paired = medians(iterations, [
            { _ = SpecReader.read(json: data, file: path) },
            { _ = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) },
        ])
        let megabytes = Double(data.count) / 1_000_000
        print("file: \(path) (\(data.count) bytes), \(iterations) iterations of each measurement, medians")
        print(String(format: "ARVis read + validate, alone:       %8.3f ms  %7.1f MB/s", load * 1000, megabytes / load))
        print(String(format: "interleaved: ARVis read + validate  %8.3f ms", paired[0] * 1000))
        print(String(format: "interleaved: JSONSerialization      %8.3f ms  (parse only)", paired[1] * 1000))
        print(String(format: "RESULT load_median %.4f ms", load * 1000))
        print(String(format: "RESULT load_throughput %.1f MB/s", megabytes / load))
        print(String(format: "RESULT paired_load_median %.4f ms", paired[0] * 1000))
        print(String(format: "RESULT jsonserialization_median %.4f ms", paired[1] * 1000))
        print(String(format: "RESULT load_vs_jsonserialization %.3f x", paired[0] / paired[1]))
    }

    /// The median wall time in seconds of each body, after a warm-up. Several bodies take turns, so
    /// they see the same machine: on a shared host whose speed drifts, their ratio stays meaningful
    /// (a body timed alone keeps its caches warm, which is how a throughput figure is meant).
    private func medians(_ count: Int, _ bodies: [() -> Void]) -> [Double] {
        for _ in 0..<max(3, count / 10) { bodies.forEach { $0() } }
        var samples = [[Double]](repeating: [], count: bodies.count)
        for _ in 0..<count {
            for (index, body) in bodies.enumerated() { samples[index].append(seconds(body)) }
        }
        return samples.map { $0.sorted()[count / 2] }
    }

    private func seconds(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    private static func largestCorpusFile() throws -> String {
        let root = URL(fileURLWithPath: "../shared/corpus")
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.fileSizeKey]) else {
            throw ValidationError("no corpus at \(root.path); pass --file")
        }
        var best: (path: String, size: Int)?
        for case let url as URL in walker where url.pathExtension == "json" {
            let size = (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
            if size > best?.size ?? -1 { best = (url.path, size) }
        }
        guard let best else { throw ValidationError("no JSON files under \(root.path); pass --file") }
        return best.path
    }
}

Bench.main()
