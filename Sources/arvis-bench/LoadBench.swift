import ARVisSpec
import ArgumentParser
import Foundation

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
            throw ValidationError(
                "\(path) does not load: \(check.diagnostics.first.map(String.init(describing:)) ?? "")")
        }
        let load = medians(iterations, [{ _ = SpecReader.read(json: data, file: path) }])[0]
        let paired = medians(
            iterations,
            [
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

    static func largestCorpusFile() throws -> String {
        let root = URL(fileURLWithPath: "../shared/corpus")
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.fileSizeKey]) else {
            throw ValidationError("no corpus at \(root.path); pass --file")
        }
        var best: (path: String, size: Int)?
        for case let url as URL in walker where url.lastPathComponent.hasSuffix(".json") {
            let size = (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
            if size > best?.size ?? -1 { best = (url.path, size) }
        }
        guard let best else { throw ValidationError("no JSON files under \(root.path); pass --file") }
        return best.path
    }
}
