import ARVisGraphics
import ARVisSpec
import ARVisSupport

/// The widget's card: its size, padding, background, scrolling (a clip; iOS hides scroll bars at rest)
/// and expand button.
struct WidgetFrame {
    let size: Size
    let padding: EdgeInsets
    let isOpaque: Bool
    let isScrollEnabled: Bool
    let showsExpandButton: Bool
    /// Fit the height to the content instead of using `size.height` (standalone components and charts).
    let fitsHeight: Bool

    init(_ widget: WidgetConfiguration) {
        size = widget.size ?? WidgetConfiguration.defaultSize
        padding = widget.padding ?? WidgetConfiguration.defaultPadding
        isOpaque = widget.isOpaque ?? true
        isScrollEnabled = widget.isScrollEnabled ?? true
        showsExpandButton = widget.showExpandButton ?? true
        fitsHeight = false
    }

    /// A frame for a component shown alone: the default widget width, the content's height.
    init(standaloneWidth: Double) {
        size = Size(width: standaloneWidth, height: 0)
        padding = WidgetConfiguration.defaultPadding
        isOpaque = true
        isScrollEnabled = true
        showsExpandButton = false
        fitsHeight = true
    }

    func drawing(of content: any LayoutNode, title: String, summary: String, context: RenderContext) -> Drawing {
        let innerWidth = max(0, size.width - padding.leading - padding.trailing)
        let innerHeight = max(0, size.height - padding.top - padding.bottom)
        let proposal = Proposal(width: innerWidth, height: isScrollEnabled || fitsHeight ? nil : innerHeight)
        let contentSize = content.size(for: proposal, in: context)
        let overflows = contentSize.height > innerHeight + 0.5
        let grows = fitsHeight || (overflows && isScrollEnabled && context.options.fullHeight)
        let height = grows ? contentSize.height + padding.top + padding.bottom : size.height
        let frame = Rect(x: 0, y: 0, width: size.width, height: height)
        // iARVis pins content top-leading (`frame(maxWidth: .infinity, alignment: .topLeading)`).
        let contentRect = Rect(
            x: padding.leading, y: padding.top, width: contentSize.width, height: contentSize.height)
        context.canvas = Rect(
            x: padding.leading, y: padding.top, width: innerWidth, height: max(innerHeight, contentSize.height))
        var elements: [Element] = []
        if isOpaque {
            elements.append(
                .shape(Shape(path: .roundedRect(frame, radius: Theme.widgetCornerRadius), fill: Theme.widgetBackground))
            )
        }
        // Content inside the padding never reaches the rounded corners; a plain rectangle clips it more cheaply.
        let nearCorners =
            overflows
            || min(padding.leading, padding.top, padding.trailing, padding.bottom) < Theme.widgetCornerRadius * 0.3
        let clip: Path = nearCorners ? .roundedRect(frame, radius: Theme.widgetCornerRadius) : .rect(frame)
        elements.append(.group(Group(content.draw(in: contentRect, context: context), clip: clip)))
        if showsExpandButton { elements += expandButton(in: frame) }
        return Drawing(
            extent: Size(width: frame.width, height: frame.height), title: title, summary: summary, elements: elements
        )
    }

    /// iARVis's round "expand to screen" button: `arrow.up.left.and.arrow.down.right` at 15 points in
    /// grey, 8 points of padding, on a white disc with a soft shadow, 16 points from the top and
    /// trailing edges.
    private func expandButton(in frame: Rect) -> [Element] {
        let radius = 16.5
        let center = Point(frame.maxX - 16 - radius, frame.minY + 16 + radius)
        let reach = 6.5
        var arrows = Path()
        for sign in [-1.0, 1.0] {
            let tip = Point(center.x + sign * reach, center.y + sign * reach)
            arrows.move(to: Point(center.x + sign * 1.5, center.y + sign * 1.5))
            arrows.line(to: tip)
            arrows.move(to: Point(tip.x, tip.y - sign * 4.5))
            arrows.line(to: tip)
            arrows.line(to: Point(tip.x - sign * 4.5, tip.y))
        }
        let disc = Placeholder.softShadow(radius: 5) { .circle(center: center, radius: radius + $0) }
        return [
            .group(
                Group(
                    disc + [
                        .shape(Shape(path: .circle(center: center, radius: radius), fill: .white)),
                        .shape(
                            Shape(path: arrows, stroke: Stroke(color: Theme.placeholderInk, width: 1.6, isRound: true))),
                    ], label: "Expand"))
        ]
    }
}
