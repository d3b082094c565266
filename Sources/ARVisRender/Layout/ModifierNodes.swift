import ARVisGraphics
import ARVisSpec
import ARVisSupport

/// `padding`: insets around the content; edges left out get the system padding, as in SwiftUI.
struct PaddingNode: LayoutNode {
    let child: any LayoutNode
    let top: Double, leading: Double, bottom: Double, trailing: Double

    init(child: any LayoutNode, _ padding: PaddingModifier) {
        self.child = child
        top = padding.top ?? Theme.systemPadding
        leading = padding.leading ?? Theme.systemPadding
        bottom = padding.bottom ?? Theme.systemPadding
        trailing = padding.trailing ?? Theme.systemPadding
    }

    var stretch: Stretch { child.stretch }

    func size(for proposal: Proposal, in context: RenderContext) -> Size {
        let inner = child.size(
            for: Proposal(
                width: proposal.width.map { max(0, $0 - leading - trailing) },
                height: proposal.height.map { max(0, $0 - top - bottom) }), in: context)
        return Size(width: inner.width + leading + trailing, height: inner.height + top + bottom)
    }

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        child.draw(in: rect.inset(top: top, left: leading, bottom: bottom, right: trailing), context: context)
    }
}

/// A modifier that changes how its content is drawn but not its size.
protocol DecoratingNode: LayoutNode {
    var child: any LayoutNode { get }
}

extension DecoratingNode {
    var stretch: Stretch { child.stretch }

    func size(for proposal: Proposal, in context: RenderContext) -> Size { child.size(for: proposal, in: context) }
}

/// `background`: a colour behind the content, as large as the content.
struct BackgroundNode: DecoratingNode {
    let child: any LayoutNode
    let color: DrawingColor

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        [.shape(Shape(path: .rect(rect), fill: color))] + child.draw(in: rect, context: context)
    }
}

/// `roundedCorner`: clips the content (and any background) to a rounded rectangle.
struct RoundedCornerNode: DecoratingNode {
    let child: any LayoutNode
    let radius: Double

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        [.group(Group(child.draw(in: rect, context: context), clip: .roundedRect(rect, radius: radius)))]
    }
}

/// `onTap` with `openURL`: the content becomes a link, when ``LinkPolicy`` allows one (or an
/// `iARVis:` link opens what it names).
struct TapNode: DecoratingNode {
    let child: any LayoutNode
    let url: String

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        // A transparent hit area makes the whole frame clickable, not only the ink.
        let hitArea = Element.shape(Shape(path: .rect(rect), fill: .clear))
        return [.group(Group([hitArea] + child.draw(in: rect, context: context), link: context.linkTarget(url)))]
    }
}

/// A node with a fixed size whatever it is offered.
struct FixedSizeNode: LayoutNode {
    let extent: Size
    let drawing: (Rect, RenderContext) -> [Element]

    func size(for proposal: Proposal, in context: RenderContext) -> Size { extent }
    func draw(in rect: Rect, context: RenderContext) -> [Element] { drawing(rect, context) }
}

extension Modifier {
    /// `node` with this modifier applied.
    func apply(to node: any LayoutNode) -> any LayoutNode {
        switch self {
        case .padding(let padding): PaddingNode(child: node, padding)
        case .background(let color): BackgroundNode(child: node, color: Theme.color(color))
        case .roundedCorner(let radius): RoundedCornerNode(child: node, radius: radius)
        case .onTap(.openURL(let url)): TapNode(child: node, url: url)
        }
    }
}
