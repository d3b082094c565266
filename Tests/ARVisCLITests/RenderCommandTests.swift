import ARVisCLI
import ARVisTestSupport
import Foundation
import Testing

/// `arvis render` end to end: formats, folders for environments, widget selection and errors.
struct RenderCommandTests {
    private func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("arvis-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private var barChart: String { Corpus.packageRoot.appendingPathComponent("Examples/laptop-benchmark-bar-chart.json").path }
    private var environment: String { Corpus.packageRoot.appendingPathComponent("Examples/two-targets-environment.json").path }

    @Test(arguments: ["svg", "png", "html"])
    func rendersAChartToEachFormat(format: String) throws {
        let output = try temporaryFolder().appendingPathComponent("chart.\(format)")
        #expect(ARVisCommand.run(arguments: ["render", barChart, "-o", output.path]) == 0)
        let data = try Data(contentsOf: output)
        switch format {
        case "png": #expect(Array(data.prefix(4)) == [137, 80, 78, 71])
        case "svg": #expect(String(decoding: data, as: UTF8.self).hasPrefix("<svg"))
        default: #expect(String(decoding: data, as: UTF8.self).contains("<!DOCTYPE html>"))
        }
    }

    @Test func scaleMultipliesPNGPixels() throws {
        let folder = try temporaryFolder()
        let one = folder.appendingPathComponent("1.png"), two = folder.appendingPathComponent("2.png")
        #expect(ARVisCommand.run(arguments: ["render", barChart, "-o", one.path]) == 0)
        #expect(ARVisCommand.run(arguments: ["render", barChart, "--scale", "2", "-o", two.path]) == 0)
        func width(_ url: URL) throws -> UInt32 {
            try Data(contentsOf: url)[16..<20].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        #expect(try width(two) == 2 * width(one))
    }

    @Test func anEnvironmentFillsAFolderWithAGallery() throws {
        let folder = try temporaryFolder().appendingPathComponent("out")
        #expect(ARVisCommand.run(arguments: ["render", environment, "--format", "svg", "-o", folder.path]) == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names.contains("index.html") && names.contains("image1-widget1.svg") && names.contains("image2-widget2.svg"))
        let gallery = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(gallery.contains("href=\"image1-widget1.svg\""))
    }

    @Test func aFolderOutputAlwaysGetsFilesAndAGallery() throws {
        let folder = try temporaryFolder()
        #expect(ARVisCommand.run(arguments: ["render", barChart, "--format", "png", "-o", folder.path + "/"]) == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["chart.png", "index.html"])
    }

    @Test func widgetSelectsOneWidget() throws {
        let output = try temporaryFolder().appendingPathComponent("w.html")
        #expect(ARVisCommand.run(arguments: ["render", environment, "--widget", "2", "-o", output.path]) == 0)
        #expect(try String(contentsOf: output, encoding: .utf8).contains("<title>image1-widget2</title>"))
        #expect(ARVisCommand.run(arguments: ["render", environment, "--widget", "99", "-o", output.path]) == 2)
        #expect(ARVisCommand.run(arguments: ["render", environment, "--widget", "0"]) == 2)
    }

    @Test func badInputAndArgumentsFailClearly() throws {
        let folder = try temporaryFolder()
        let bad = folder.appendingPathComponent("bad.json")
        try Data(#"{"text": {"content": 3}}"#.utf8).write(to: bad)
        #expect(ARVisCommand.run(arguments: ["render", bad.path]) == 1)
        #expect(ARVisCommand.run(arguments: ["render", "/nonexistent.json"]) == 2)
        #expect(ARVisCommand.run(arguments: ["render", barChart, "--scale", "100"]) == 2)
        #expect(ARVisCommand.run(arguments: ["render", barChart, "--format", "gif"]) == 2)
        #expect(ARVisCommand.run(arguments: ["render", environment]) == 2)  // many widgets need -o FOLDER
        #expect(ARVisCommand.run(arguments: ["render", barChart, "--font-dir", "/nonexistent", "-o", folder.appendingPathComponent("x.svg").path]) == 2)
        #expect(ARVisCommand.run(arguments: ["render", barChart, "-o", "/nonexistent/dir/x.svg"]) == 2)
    }

    @Test func fetchEmbedsLocalImages() throws {
        let folder = try temporaryFolder()
        let png: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 4, 0, 0, 0, 3, 8, 2, 0, 0, 0]
        try Data(png).write(to: folder.appendingPathComponent("pic.png"))
        let spec = folder.appendingPathComponent("image.json")
        try Data(#"{"image": {"url": "pic.png", "contentMode": "fit"}}"#.utf8).write(to: spec)
        let output = folder.appendingPathComponent("out.svg")
        #expect(ARVisCommand.run(arguments: ["render", spec.path, "--fetch", "-o", output.path]) == 0)
        let svg = try String(contentsOf: output, encoding: .utf8)
        #expect(svg.contains("href=\"data:image/png;base64,"))
        // A 4×3 picture keeps its aspect ratio: 992 wide, 744 tall.
        #expect(svg.contains("width=\"992\" height=\"744\""))
    }
}
