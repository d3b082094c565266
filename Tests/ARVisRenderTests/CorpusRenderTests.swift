import ARVisGraphics
import ARVisRender
import ARVisSpec
import ARVisSupport
import ARVisTestSupport
import Foundation
import Testing

/// Every corpus spec and example renders every widget, to byte-identical SVG on every run and to a PNG.
struct CorpusRenderTests {
    static let files = Corpus.files + Corpus.examples.filter { $0.pathExtension == "json" }
    static let renderer = try? Renderer()

    @Test(.enabled(if: Corpus.iarvisFolder != nil, "\(Corpus.absenceReason ?? "")"))
    func corpusIsPresent() {
        #expect(Corpus.files.count == 57)
    }

    @Test(arguments: files)
    func rendersEveryWidget(_ file: URL) throws {
        let renderer = try #require(Self.renderer)
        let document = try SpecReader.decode(try Data(contentsOf: file))
        let widgets = try renderer.render(document)
        #expect(!widgets.isEmpty)
        for widget in widgets {
            let svg = SVGWriter().write(widget.drawing)
            #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>\n"))
            #expect(
                svg == SVGWriter().write(try renderer.render(document).first { $0.name == widget.name }!.drawing),
                "not deterministic")
            #expect(widget.drawing.extent.width > 0 && widget.drawing.extent.height > 0)
            let png = try PNGWriter(fonts: renderer.fonts).write(widget.drawing)
            #expect(png.count > 100)
            #expect(HTMLWriter().page(widget.drawing).contains(SVGWriter(interactive: true).write(widget.drawing)))
        }
    }
}
