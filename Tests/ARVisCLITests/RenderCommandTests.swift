import ARVisCLI
import ARVisGraphics
import ARVisSpec
import ARVisTestSupport
import Foundation
import Testing

/// `arvis render` end to end: formats, folders for environments, widget selection and errors.
struct RenderCommandTests {
    let scratch = ScratchFolder("render")

    private func temporaryFolder() throws -> URL { try scratch.folder() }

    private var barChart: String {
        Corpus.packageRoot.appendingPathComponent("Examples/laptop-benchmark-bar-chart.json").path
    }
    private var environment: String {
        Corpus.packageRoot.appendingPathComponent("Examples/two-targets-environment.json").path
    }

    @Test(arguments: ["svg", "png", "html"])
    func rendersAChartToEachFormat(format: String) async throws {
        let output = try temporaryFolder().appendingPathComponent("chart.\(format)")
        #expect(await arvis(["render", barChart, "-o", output.path]) == 0)
        let data = try Data(contentsOf: output)
        switch format {
        case "png": #expect(Array(data.prefix(4)) == [137, 80, 78, 71])
        case "svg": #expect(String(decoding: data, as: UTF8.self).hasPrefix("<svg"))
        default: #expect(String(decoding: data, as: UTF8.self).contains("<!DOCTYPE html>"))
        }
    }

    /// With --fetch, PNG output draws a local JPEG (the test card's blue squares appear); without, its placeholder.
    @Test func pngOutputDrawsFetchedPictures() async throws {
        let folder = try temporaryFolder()
        let card = Corpus.packageRoot.appendingPathComponent(
            "Tests/ARVisGraphicsTests/Pictures/jpeg-progressive-420.jpg")
        try FileManager.default.copyItem(at: card, to: folder.appendingPathComponent("card.jpg"))
        let spec = folder.appendingPathComponent("card.json")
        try Data(#"{"image": {"url": "card.jpg", "width": 74, "height": 46}}"#.utf8).write(to: spec)
        func bluePixels(_ arguments: [String]) async throws -> Int {
            let output = folder.appendingPathComponent("card.png")
            #expect(await arvis(["render", spec.path, "-o", output.path] + arguments) == 0)
            let picture = try RasterImage(decoding: [UInt8](try Data(contentsOf: output)))
            return stride(from: 0, to: picture.pixels.count, by: 4).filter { index in
                abs(Int(picture.pixels[index]) - 20) < 30 && abs(Int(picture.pixels[index + 1]) - 60) < 30
                    && abs(Int(picture.pixels[index + 2]) - 200) < 30
            }.count
        }
        #expect(try await bluePixels(["--fetch"]) > 60)
        #expect(try await bluePixels([]) == 0)
    }

    @Test func scaleMultipliesPNGPixels() async throws {
        let folder = try temporaryFolder()
        let one = folder.appendingPathComponent("1.png")
        let two = folder.appendingPathComponent("2.png")
        #expect(await arvis(["render", barChart, "-o", one.path]) == 0)
        #expect(await arvis(["render", barChart, "--scale", "2", "-o", two.path]) == 0)
        func width(_ url: URL) throws -> UInt32 {
            try Data(contentsOf: url)[16..<20].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        #expect(try width(two) == 2 * width(one))
    }

    @Test func anEnvironmentFillsAFolderWithAGallery() async throws {
        let folder = try temporaryFolder().appendingPathComponent("out")
        #expect(await arvis(["render", environment, "--format", "svg", "-o", folder.path]) == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(
            names.contains("index.html") && names.contains("image1-widget1.svg") && names.contains("image2-widget2.svg")
        )
        let gallery = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(gallery.contains("href=\"image1-widget1.svg\""))
    }

    @Test func aFolderOutputAlwaysGetsFilesAndAGallery() async throws {
        let folder = try temporaryFolder()
        #expect(await arvis(["render", barChart, "--format", "png", "-o", folder.path + "/"]) == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["chart.png", "index.html"])
    }

    @Test func widgetSelectsOneWidget() async throws {
        let output = try temporaryFolder().appendingPathComponent("w.html")
        #expect(await arvis(["render", environment, "--widget", "2", "-o", output.path]) == 0)
        #expect(try String(contentsOf: output, encoding: .utf8).contains("<title>image1-widget2</title>"))
        #expect(await arvis(["render", environment, "--widget", "99", "-o", output.path]) == 2)
        #expect(await arvis(["render", environment, "--widget", "0"]) == 2)
    }

    @Test func badInputAndArgumentsFailClearly() async throws {
        let folder = try temporaryFolder()
        let bad = folder.appendingPathComponent("bad.json")
        try Data(#"{"text": {"content": 3}}"#.utf8).write(to: bad)
        #expect(await arvis(["render", bad.path]) == 1)
        #expect(await arvis(["render", "/nonexistent.json"]) == 2)
        #expect(await arvis(["render", barChart, "--scale", "100"]) == 2)
        #expect(await arvis(["render", barChart, "--format", "gif"]) == 2)
        #expect(await arvis(["render", environment]) == 2)  // many widgets need -o FOLDER
        #expect(
            await arvis([
                "render", barChart, "--font-dir", "/nonexistent", "-o", folder.appendingPathComponent("x.svg").path,
            ]) == 2)
        #expect(await arvis(["render", barChart, "-o", "/nonexistent/dir/x.svg"]) == 2)
    }

    @Test func fetchEmbedsLocalImages() async throws {
        let folder = try temporaryFolder()
        let png: [UInt8] = [
            137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 4, 0, 0, 0, 3, 8, 2, 0, 0, 0,
        ]
        try Data(png).write(to: folder.appendingPathComponent("pic.png"))
        let spec = folder.appendingPathComponent("image.json")
        try Data(#"{"image": {"url": "pic.png", "contentMode": "fit"}}"#.utf8).write(to: spec)
        let output = folder.appendingPathComponent("out.svg")
        #expect(await arvis(["render", spec.path, "--fetch", "-o", output.path]) == 0)
        let svg = try String(contentsOf: output, encoding: .utf8)
        #expect(svg.contains("href=\"data:image/png;base64,"))
        // A 4×3 picture keeps its aspect ratio: 992 wide, 744 tall.
        #expect(svg.contains("width=\"992\" height=\"744\""))
    }

    /// What an attacker's spec asks for: files outside its folder, this machine's services and the
    /// cloud metadata address. None may reach the output, and the spec still renders.
    @Test func fetchEmbedsNothingFromOutsideTheFolderOrFromPrivateAddresses() async throws {
        let folder = try temporaryFolder()
        let urls = [
            "/etc/passwd", "../../../../../../etc/passwd", "file:///proc/self/environ", "file:///etc/hostname",
            "http://127.0.0.1:9/x.png", "http://localhost:9/x.png", "http://169.254.169.254/latest/meta-data/",
            "http://[::1]:9/",
        ]
        let images = urls.map { #"{"image": {"url": "\#($0)", "contentMode": "fit", "width": 10, "height": 10}}"# }
        let spec = folder.appendingPathComponent("attack.json")
        try Data(#"{"vStack": {"elements": [\#(images.joined(separator: ","))]}}"#.utf8).write(to: spec)
        for format in ["svg", "html"] {
            let output = folder.appendingPathComponent("out.\(format)")
            #expect(await arvis(["render", spec.path, "--fetch", "-o", output.path]) == 0)
            let text = try String(contentsOf: output, encoding: .utf8)
            #expect(!text.contains("base64,"))
            #expect(!text.contains("root:"))
        }
        #expect(await arvis(["validate", "--strict", spec.path]) == 1)
    }

    @Test func unsafeLinksRenderAsText() async throws {
        let folder = try temporaryFolder()
        let spec = folder.appendingPathComponent("links.json")
        try Data(
            #"""
            {"vStack": {"elements": [
              {"text": {"content": "[click](javascript:alert(1)) [ok](https://example.org) [x]( JaVaScRiPt&#58;alert(2))"}},
              {"link": {"url": "vbscript:msgbox(1)", "title": "vb"}},
              {"text": {"content": "tap", "modifiers": [{"onTap": {"action": {"openURL": {"url": "data:text/html,<script>alert(3)</script>"}}}}]}}
            ]}}
            """#.utf8
        ).write(to: spec)
        let output = folder.appendingPathComponent("out.html")
        #expect(await arvis(["render", spec.path, "-o", output.path]) == 0)
        let html = try String(contentsOf: output, encoding: .utf8)
        let hrefs = html.components(separatedBy: "href=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(hrefs == ["https://example.org"])
        #expect(html.contains("Content-Security-Policy"))
        #expect(await arvis(["validate", spec.path]) == 0)
        #expect(await arvis(["validate", "--strict", spec.path]) == 1)
    }
}

/// `arvis qr` end to end.
struct QRCommandTests {
    let scratch = ScratchFolder("qr-command")

    @Test func writesPNGAndSVGOfTheDeepLink() async throws {
        let folder = try scratch.folder()
        let png = folder.appendingPathComponent("code.png")
        let svg = folder.appendingPathComponent("code.svg")
        #expect(
            await arvis([
                "qr", "https://arvis.example/s/museum/ensor.json", "--iarvis", "--module-size", "4", "-o", png.path,
            ]) == 0)
        let picture = try RasterImage(decoding: [UInt8](try Data(contentsOf: png)))
        let code = try QRCode(encoding: IARVisLink.openVisConfig("https://arvis.example/s/museum/ensor.json"))
        #expect(picture.width == (code.size + 2 * QRCode.quietZone) * 4)
        #expect(await arvis(["qr", "hello", "--level", "H", "-o", svg.path]) == 0)
        #expect(try String(contentsOf: svg, encoding: .utf8).contains("<title>QR Code</title>"))
    }

    @Test func refusesWhatCannotBeEncoded() async throws {
        let folder = try scratch.folder()
        #expect(
            await arvis(["qr", String(repeating: "x", count: 3000), "-o", folder.appendingPathComponent("a.svg").path])
                == 2)
        #expect(await arvis(["qr", "javascript:alert(1)", "--iarvis"]) == 2)
        #expect(await arvis(["qr", "a", "-o", folder.appendingPathComponent("a.gif").path]) == 2)
        #expect(await arvis(["qr", "a", "--min-version", "41"]) == 2)
    }
}
