import ARVisGraphics
import ARVisRender
import ARVisSpec
import ARVisSupport
import Foundation
import Testing

/// `iARVis://openComponent` links in drawings: their components drawn as overlays of the widget,
/// chains and cycles, and what static SVG and PNG make of them.
struct LinkOverlayTests {
    private let renderer = try? Renderer()

    private func link(_ component: String, _ parameters: String = "") -> String {
        "iARVis://openComponent?json=" + IARVisLink.percentEncoded(component) + parameters
    }

    private func drawing(_ content: String) throws -> Drawing {
        let renderer = try #require(renderer)
        return try renderer.render(.text(Component.Text(content)), name: "w").drawing
    }

    @Test func aLinkedComponentIsAnOverlayTheLinkOpens() throws {
        let drawn = try drawing(
            "Open [the details](\(link(#"{"text": {"content": "**Details** here"}}"#, "&size=[600,300]")))")
        #expect(drawn.overlays.count == 1)
        let overlay = try #require(drawn.overlays.first)
        #expect(overlay.id == "arvis-open-1" && overlay.drawing.extent.width == 600)
        let html = HTMLWriter().page(drawn)
        #expect(html.contains(##"<a href="#arvis-open-1" class="arvis-open" role="button">"##))
        #expect(
            html.contains(##"<div class="arvis-overlay" id="arvis-open-1" data-child=""##)
                && html.contains(##"role="dialog" aria-modal="true""##) && html.contains("Details"))
        #expect(
            overlay.child.map { !$0.isEmpty && html.contains("data-child=\"\($0)\"") } == true,
            "named as the child widget it adds in AR")
        #expect(!html.contains("iARVis://"), "no link a browser cannot follow")
        let svg = SVGWriter().write(drawn)
        #expect(!svg.contains("arvis-open") && svg.contains("the details"), "static SVG draws the link as text")
    }

    @Test func chainsOpenAboveEachOtherAndRepeatsReuse() throws {
        let leaf = #"{"text": {"content": "Leaf"}}"#
        let middle = "{\"text\": {\"content\": \"[leaf](\(link(leaf)))\"}}"
        let drawn = try drawing("[middle](\(link(middle)))")
        #expect(drawn.overlays.map(\.id) == ["arvis-open-1", "arvis-open-2"])
        let html = HTMLWriter().page(drawn)
        #expect(html.contains(##"href="#arvis-open-2""##), "the middle's link opens the leaf")
        let same = try drawing("[one](\(link(leaf))) and [again](\(link(leaf)))")
        #expect(same.overlays.count == 1, "one component, one overlay")
    }

    @Test func chainsStopAtTheirDepth() throws {
        var component = #"{"text": {"content": "end"}}"#
        for level in 0..<9 { component = "{\"text\": {\"content\": \"[level \(level)](\(link(component)))\"}}" }
        let drawn = try drawing("[start](\(link(component)))")
        #expect(drawn.overlays.count == 8)
    }

    @Test func pagesFollowTheSafeLinkRuleAndWholeEnvironmentsAreText() throws {
        let safe = try drawing(
            "[web](iARVis://link?href=https%3A%2F%2Fexample.org) [script](iARVis://link?href=javascript%3Aalert(1)) [env](iARVis://openVisConfig?json=%7B%7D) [broken](iARVis://openComponent?json=%7Bnope)"
        )
        let svg = SVGWriter(interactive: true).write(safe)
        #expect(svg.contains(#"href="https://example.org""#))
        #expect(!svg.contains("javascript") && !svg.contains("openVisConfig") && !svg.contains("nope"))
        #expect(safe.overlays.isEmpty)
    }
}
