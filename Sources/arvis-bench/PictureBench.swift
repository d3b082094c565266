import ARVisGraphics
import ARVisRender
import ARVisSpec
import ARVisSupport
import ArgumentParser
import Foundation

/// PNG output on the corpus: bytes and encoding time with dynamic against fixed Huffman codes; and
/// decoding a 12-megapixel PNG, as a picture drawn into PNG output is.
struct PictureBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pictures",
        abstract:
            "Render every corpus widget to PNG with dynamic and with fixed Huffman codes (total bytes and time); decode a 12-megapixel PNG."
    )

    @Option(help: "Pixels per point of the renders.")
    var scale = 1.0

    @Option(help: "Timed repetitions of the whole corpus.")
    var iterations = 3

    func run() throws {
        try decoding()
        let folder = URL(fileURLWithPath: "../shared/corpus")
        guard FileManager.default.fileExists(atPath: folder.path) else {
            print("skipped: the corpus (\(folder.path)) is absent")
            return
        }
        let renderer = try Renderer()
        var drawings: [Drawing] = []
        for url in Self.jsonFiles(under: folder) {
            guard let data = try? Data(contentsOf: url), let document = SpecReader.read(json: data).document,
                let widgets = try? renderer.render(document)
            else { continue }
            drawings += widgets.map(\.drawing)
        }
        var dynamic = PNGWriter(fonts: renderer.fonts, scale: scale)
        var fixed = dynamic
        fixed.huffmanCodes = .fixed
        dynamic.huffmanCodes = .dynamic
        let dynamicBytes = try drawings.reduce(0) { $0 + (try dynamic.write($1)).count }
        let fixedBytes = try drawings.reduce(0) { $0 + (try fixed.write($1)).count }
        let times = medians(
            iterations,
            [
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

    /// Decodes a 4000 × 3000 PNG of soft gradients and rings (a photograph-sized picture).
    private func decoding() throws {
        let renderer = try Renderer()
        var elements: [Element] = []
        for ring in 0..<60 {
            let color = DrawingColor(
                red: UInt8(ring * 4), green: UInt8(255 - ring * 4), blue: UInt8((ring * 37) % 256), opacity: 0.5)
            elements.append(
                .shape(
                    Shape(
                        path: .circle(
                            center: Point(Double(ring * 30), Double(ring * 20)), radius: Double(200 + ring * 7)),
                        fill: color)))
        }
        let png = try PNGWriter(fonts: renderer.fonts).write(
            Drawing(extent: Size(width: 4000, height: 3000), elements: elements))
        var decoded = 0
        let seconds = medians(iterations, [{ decoded = (try? RasterImage(decoding: png))?.width ?? 0 }])[0]
        print(
            String(
                format: "4000×3000 PNG (%.1f MB) decoded in %.3f s (width %d)", Double(png.count) / 1e6, seconds,
                decoded))
        print(String(format: "RESULT png_decode_12mp %.3f s", seconds))
    }

    private static func jsonFiles(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        return walker.compactMap { $0 as? URL }.filter { $0.lastPathComponent.hasSuffix(".json") }.sorted {
            $0.path < $1.path
        }
    }
}
