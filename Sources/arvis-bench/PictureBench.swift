import ARVisGraphics
import ARVisRender
import ARVisSpec
import ArgumentParser
import Foundation

/// PNG output on the corpus: bytes and encoding time with dynamic against fixed Huffman codes.
struct PictureBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pictures",
        abstract: "Render every corpus widget to PNG with dynamic and with fixed Huffman codes: total bytes and time.")

    @Option(help: "Pixels per point of the renders.")
    var scale = 1.0

    @Option(help: "Timed repetitions of the whole corpus.")
    var iterations = 3

    func run() throws {
        let folder = URL(fileURLWithPath: "../shared/corpus")
        guard FileManager.default.fileExists(atPath: folder.path) else {
            print("skipped: the corpus (\(folder.path)) is absent")
            return
        }
        let renderer = try Renderer()
        var drawings: [Drawing] = []
        for url in Self.jsonFiles(under: folder) {
            guard let data = try? Data(contentsOf: url), let document = SpecReader.read(json: data).document,
                  let widgets = try? renderer.render(document) else { continue }
            drawings += widgets.map(\.drawing)
        }
        var dynamic = PNGWriter(fonts: renderer.fonts, scale: scale), fixed = dynamic
        fixed.huffmanCodes = .fixed
        dynamic.huffmanCodes = .dynamic
        let dynamicBytes = try drawings.reduce(0) { $0 + (try dynamic.write($1)).count }
        let fixedBytes = try drawings.reduce(0) { $0 + (try fixed.write($1)).count }
        let times = medians(iterations, [
            { for drawing in drawings { _ = try? dynamic.write(drawing) } },
            { for drawing in drawings { _ = try? fixed.write(drawing) } },
        ])
        print("\(drawings.count) corpus widgets → PNG at \(scale)×")
        print(String(format: "dynamic Huffman codes: %10d bytes  %8.1f ms", dynamicBytes, times[0] * 1000))
        print(String(format: "fixed Huffman codes:   %10d bytes  %8.1f ms", fixedBytes, times[1] * 1000))
        print("RESULT corpus_png_widgets \(drawings.count) widgets")
        print("RESULT corpus_png_bytes_dynamic \(dynamicBytes) bytes")
        print("RESULT corpus_png_bytes_fixed \(fixedBytes) bytes")
        print(String(format: "RESULT corpus_png_size_ratio %.3f x", Double(dynamicBytes) / Double(fixedBytes)))
        print(String(format: "RESULT corpus_png_time_dynamic %.1f ms", times[0] * 1000))
        print(String(format: "RESULT corpus_png_time_fixed %.1f ms", times[1] * 1000))
    }

    private static func jsonFiles(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
    }
}
