import ARVisGraphics
import ARVisPipeline
import ARVisSupport
import ARVisTestSupport
import Foundation
import Testing

/// The project's printable marker: a QR code a real reader decodes, shapes fixed by its text, and a
/// PDF page that prints it at its stated width.
struct ProjectMarkerTests {
    static let link = "https://arvis.example/#/p/hill-side/planting"
    static let tools = ["/usr/bin/zbarimg", "/usr/bin/gs"].allSatisfy {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Runs a tool; returns its exit status and standard output.
    private static func run(_ tool: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test func theShapesComeFromTheTextAndKeepClearOfTheCode() throws {
        let marker = ProjectMarker(text: Self.link)
        let drawing = try marker.drawing(side: 1000)
        #expect(drawing == (try ProjectMarker(text: Self.link).drawing(side: 1000)), "the same text, the same marker")
        #expect(drawing != (try ProjectMarker(text: Self.link + "x").drawing(side: 1000)))
        #expect(drawing.elements.count > 60, "a frame, a ring of shapes and the code")
        #expect(throws: GraphicsError.self) { try ProjectMarker(text: String(repeating: "é", count: 3_000)).drawing() }
    }

    @Test(.enabled(if: tools, "skipped: zbarimg (zbar-tools) or gs (ghostscript) is not installed"))
    func aReaderDecodesItAndThePagePrintsItAtTwentyCentimetres() async throws {
        let scratch = ScratchFolder("marker")
        let folder = try scratch.folder()
        let (decoded, printed) = try await offThePool("marker") { () throws -> (String, (String, Double)) in
            let png = try PNGWriter(fonts: try FontLibrary.standard(), background: .white).write(
                ProjectMarker(text: Self.link).drawing(side: 1000))
            let pngPath = folder.appendingPathComponent("marker.png").path
            try Data(png).write(to: URL(fileURLWithPath: pngPath))
            let pdf = try PDFPictureSheet(png: png, width: 200, lines: ["Print at 100 % (no scaling)", "café (x)"])
            let pdfPath = folder.appendingPathComponent("marker.pdf").path
            try Data(pdf.bytes).write(to: URL(fileURLWithPath: pdfPath))
            // Ghostscript prints the page at 254 dpi: 10 pixels a millimetre.
            let pagePath = folder.appendingPathComponent("page.png").path
            let (status, _) = try Self.run(
                "/usr/bin/gs",
                ["-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=pnggray", "-r254", "-sOutputFile=\(pagePath)", pdfPath])
            guard status == 0 else { return ("", ("gs failed", 0)) }
            let page = try RasterImage(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: pagePath))))
            // The picture's black frame: the widest dark row.
            var widest = 0
            for y in stride(from: 0, to: page.height, by: 7) {
                let dark = (0..<page.width).filter { page.pixels[(y * page.width + $0) * 4] < 128 }
                if let first = dark.first, let last = dark.last { widest = max(widest, last - first + 1) }
            }
            return (
                try Self.run("/usr/bin/zbarimg", ["--quiet", "--raw", pngPath]).1,
                (try Self.run("/usr/bin/zbarimg", ["--quiet", "--raw", pagePath]).1, Double(widest) / 10)
            )
        }
        #expect(decoded.trimmingCharacters(in: .whitespacesAndNewlines) == Self.link)
        #expect(printed.0.trimmingCharacters(in: .whitespacesAndNewlines) == Self.link, "the printed page scans")
        #expect(abs(printed.1 - 200) < 0.5, "the marker prints \(printed.1) mm wide")
        withExtendedLifetime(scratch) {}
    }

    /// A 1×1 opaque PNG.
    static var tinyPNG: [UInt8] {
        (try? PNGWriter(fonts: FontLibrary.standard(), background: .white).write(
            Drawing(extent: .init(width: 1, height: 1), title: "dot", elements: []))) ?? []
    }

    @Test func theSheetTakesOnlyOpaqueRGBPNGsThatFitThePage() {
        #expect(throws: GraphicsError.self) { try PDFPictureSheet(png: [1, 2, 3], width: 200, lines: []) }
        #expect(throws: GraphicsError.self) { try PDFPictureSheet(png: Self.tinyPNG, width: 300, lines: []) }
    }
}
