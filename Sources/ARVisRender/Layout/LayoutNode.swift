import ARVisGraphics
import ARVisSpec
import ARVisSupport

/// The space a parent offers a child; `nil` on an axis asks for the child's ideal length.
struct Proposal: Hashable {
    var width: Double?
    var height: Double?

    static let ideal = Proposal(width: nil, height: nil)
}

/// A laid-out piece of a widget, sized and drawn the way SwiftUI sizes views: the parent proposes,
/// the child chooses its size, the parent places it.
protocol LayoutNode {
    /// The size the node takes when offered `proposal`.
    func size(for proposal: Proposal, in context: RenderContext) -> Size
    /// Draws the node filling `rect` (a size it chose).
    func draw(in rect: Rect, context: RenderContext) -> [Element]
    /// How the node behaves in stacks: spacers and dividers stretch along the stack's axis.
    var stretch: Stretch { get }
}

/// How a node grows inside a stack.
enum Stretch {
    /// Takes its chosen size.
    case none
    /// Takes a share of the stack's free space along the stack's axis (a spacer).
    case spacer
    /// Spans the stack across its axis (a divider).
    case across
}

extension LayoutNode {
    var stretch: Stretch { .none }
}

/// What every node needs while measuring and drawing: fonts, options, and unique ids for interactive parts.
final class RenderContext {
    let fonts: FontLibrary
    let options: RenderOptions
    /// The widget's area inside its padding: what overlays such as chart annotations may reach into.
    var canvas: Rect?
    /// The components the widget's links open, shared by the contexts of the whole chain.
    let linked: LinkedComponents
    /// How many links deep this drawing is (0: the widget itself).
    let linkDepth: Int
    private var counter = 0

    init(fonts: FontLibrary, options: RenderOptions, linked: LinkedComponents = LinkedComponents(), linkDepth: Int = 0)
    {
        self.fonts = fonts
        self.options = options
        self.linked = linked
        self.linkDepth = linkDepth
    }

    /// A fresh id with `prefix`, unique within one render.
    func makeID(_ prefix: String) -> String {
        counter += 1
        return "\(prefix)\(counter)"
    }
}

/// Remembers a node's size per proposal. Parents measure children several times (ideal, smallest,
/// offered), so without this nested stacks and grids would take exponential time.
final class MemoizedNode: LayoutNode {
    let node: any LayoutNode
    private var sizes: [Proposal: Size] = [:]

    init(_ node: any LayoutNode) { self.node = node }

    var stretch: Stretch { node.stretch }

    func size(for proposal: Proposal, in context: RenderContext) -> Size {
        if let known = sizes[proposal] { return known }
        let size = node.size(for: proposal, in: context)
        sizes[proposal] = size
        return size
    }

    func draw(in rect: Rect, context: RenderContext) -> [Element] { node.draw(in: rect, context: context) }
}
