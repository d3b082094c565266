import ARVisGraphics
import ARVisRender
import ARVisSpec
import ARVisTestSupport
import Foundation
import Testing

/// The team's examples, and the specs of `LookSpecs/` (one per way iARVis's look is checked: tables,
/// charts in wide cards, long category names, annotations, symbols and emoji, a scatter-plot matrix,
/// media), render to exactly the committed SVGs in `Golden/`.
///
/// The files are drawn in Inter with Noto Color Emoji (Debian's `fonts-inter` and
/// `fonts-noto-color-emoji`); where they are not installed text measures differently, so the
/// comparison is skipped with a message.
/// After a deliberate rendering change, regenerate them with
/// `ARVIS_UPDATE_GOLDEN=1 swift test --filter GoldenTests` and review the diff.
struct GoldenTests {
    static let lookSpecs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "LookSpecs")
    static let examples =
        Corpus.examples.filter { $0.pathExtension == "json" }
        + ((try? FileManager.default.contentsOfDirectory(at: lookSpecs, includingPropertiesForKeys: nil)) ?? [])
        .filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    static let fonts = try? FontLibrary.standard()
    static let drawnInInter = fonts?.sansName == "Inter" && fonts?.colorEmojiName != nil
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let updating = ProcessInfo.processInfo.environment["ARVIS_UPDATE_GOLDEN"] == "1"

    @Test(
        .enabled(
            if: drawnInInter,
            "skipped: the golden files are drawn in Inter and Noto Color Emoji (apt-get install fonts-inter fonts-noto-color-emoji)"
        ),
        arguments: examples)
    func matchesGoldenSVG(_ example: URL) throws {
        let renderer = try Renderer()
        let document = try SpecReader.decode(try Data(contentsOf: example))
        for widget in try renderer.render(document) {
            let name = example.deletingPathExtension().lastPathComponent + "--" + widget.name + ".svg"
            let golden = Self.folder.appendingPathComponent(name)
            let svg = SVGWriter().write(widget.drawing)
            if Self.updating {
                try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
                try Data(svg.utf8).write(to: golden)
                continue
            }
            let expected = try #require(
                try? String(contentsOf: golden, encoding: .utf8),
                "no golden file \(name); run with ARVIS_UPDATE_GOLDEN=1")
            #expect(
                svg == expected,
                "\(name) differs from its golden file; if the change is intended, regenerate with ARVIS_UPDATE_GOLDEN=1"
            )
        }
    }
}
