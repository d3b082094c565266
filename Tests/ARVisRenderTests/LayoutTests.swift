import ARVisGraphics
import ARVisSpec
import ARVisSupport
import Foundation
import Testing

@testable import ARVisRender

struct LayoutTests {
    static var context: RenderContext? {
        (try? FontLibrary.standard()).map { RenderContext(fonts: $0, options: RenderOptions()) }
    }

    private func fixed(_ width: Double, _ height: Double) -> FixedSizeNode {
        FixedSizeNode(extent: Size(width: width, height: height)) { _, _ in [] }
    }

    /// Charts in a grid share the room left over, as in a SwiftUI Grid; a fixed-width column keeps its width.
    @Test func gridColumnsOfChartsFillTheWidth() throws {
        let context = try #require(Self.context)
        let chartJSON =
            #"{"dataSources": [{"label": "default", "data": {"x": [1, 2], "y": [1, 2]}}], "components": [{"type": "LineMark", "config": {"x": {"field": "x"}, "y": {"field": "y"}}}]}"#
        guard case .chart(let chart) = try SpecReader.decode(Data(chartJSON.utf8)) else {
            Issue.record("not a chart")
            return
        }
        let grid = GridNode(rows: [.cells([ChartNode(chart: chart), ChartNode(chart: chart), fixed(100, 50)])])
        let size = grid.size(for: Proposal(width: 1000, height: nil), in: context)
        #expect(abs(size.width - 1000) < 1)
    }

    @Test func hStackGivesFixedChildrenTheirSizeAndTextTheRest() throws {
        let context = try #require(Self.context)
        let text = TextBlock(plain: String(repeating: "word ", count: 60), style: TextStyle())
        let stack = StackNode(axis: .horizontal, children: [text, fixed(300, 100)], spacing: 8, alignment: 0.5)
        let size = stack.size(for: Proposal(width: 600, height: nil), in: context)
        #expect(size.width <= 600 && size.width > 560)  // the text takes what it needs of the 292 points left
        #expect(text.size(for: Proposal(width: 292, height: nil), in: context).width <= 292)
    }

    @Test func spacersShareTheFreeSpace() throws {
        let context = try #require(Self.context)
        let stack = StackNode(
            axis: .vertical, children: [fixed(10, 10), SpacerNode(), fixed(10, 10), SpacerNode()], spacing: 0,
            alignment: 0)
        #expect(stack.size(for: Proposal(width: 100, height: 100), in: context).height == 100)
        #expect(stack.size(for: Proposal(width: 100, height: nil), in: context).height == 20)
        let drawn = stack.draw(in: Rect(x: 0, y: 0, width: 100, height: 100), context: context)
        #expect(drawn.isEmpty)
    }

    @Test func shareLengthHonoursFixedAndFlexibleChildren() {
        // Two fixed children (flexibility 0) and one flexible one.
        let lengths = shareLength([100, 500, 50], available: 400) { index, offer in
            index == 1 ? min(500, offer) : [100, 500, 50][index]
        }
        #expect(lengths == [100, 250, 50])
        #expect(shareLength([10, 20], available: 100) { _, offer in offer } == [10, 20])
        #expect(shareLength([10, 20], available: nil) { _, offer in offer } == [10, 20])
    }

    @Test func gridColumnsAreAsWideAsTheirWidestCell() throws {
        let context = try #require(Self.context)
        let grid = GridNode(rows: [.cells([fixed(40, 10), fixed(10, 30)]), .cells([fixed(20, 10), fixed(60, 10)])])
        let size = grid.size(for: Proposal(width: 500, height: nil), in: context)
        #expect(size.width == 40 + 8 + 60 && size.height == 30 + 8 + 10)
    }

    @Test func paddingLeavesOutEdgesAtTheSystemDefault() throws {
        let context = try #require(Self.context)
        let padded = PaddingNode(child: fixed(10, 10), PaddingModifier(leading: 4))
        #expect(padded.size(for: .ideal, in: context) == Size(width: 10 + 4 + 16, height: 10 + 32))
    }

    @Test func modifiersApplyInOrder() throws {
        let context = try #require(Self.context)
        let text = Component.text(
            Component.Text(
                "Hi",
                modifiers: [
                    .padding(PaddingModifier(leading: 8, top: 8, trailing: 8, bottom: 8)), .background(.named(.yellow)),
                    .roundedCorner(radius: 8), .onTap(.openURL("https://example.org")),
                ]))
        let node = ComponentLayout.node(for: text)
        let drawn = node.draw(in: Rect(origin: .zero, extent: node.size(for: .ideal, in: context)), context: context)
        guard case .group(let link) = drawn.first, case .group(let clip) = link.elements[1] else {
            Issue.record("expected a link group around a clipped group")
            return
        }
        #expect(link.link == "https://example.org" && clip.clip != nil)
        guard case .shape(let background) = clip.elements.first else {
            Issue.record("no background")
            return
        }
        #expect(background.fill == Theme.color(.named(.yellow)))
    }
}

struct WidgetFrameTests {
    @Test func scrollingContentIsClippedWithoutAnIndicatorOrDrawnInFull() throws {
        var widget = WidgetConfiguration(
            component: .text(Component.Text(String(repeating: "A long line of text. ", count: 400))))
        widget.size = Size(width: 400, height: 300)
        let clipped = try Renderer().render(widget, name: "w").drawing
        #expect(clipped.extent == Size(width: 400, height: 300))
        let full = try Renderer(options: RenderOptions(fullHeight: true)).render(widget, name: "w").drawing
        #expect(full.extent.width == 400 && full.extent.height > 1000)
        #expect(clipped.elements.count == full.elements.count, "iOS hides scroll bars at rest")
    }

    @Test func transparentWidgetsHaveNoCard() throws {
        var widget = WidgetConfiguration(component: .text(Component.Text("Hi")))
        widget.isOpaque = false
        let drawing = try Renderer().render(widget, name: "w").drawing
        guard case .group = drawing.elements.first else {
            Issue.record("expected the content group first")
            return
        }
    }
}
