import ARVisGraphics
import ARVisSpec

/// Builds the layout tree for a component, applying its modifiers in order.
enum ComponentLayout {
    static func node(for component: Component, axis: Axis = .vertical) -> any LayoutNode {
        let base: any LayoutNode
        let modifiers: [Modifier]?
        switch component {
        case .text(let text):
            base = TextBlock(markdown: text.content, style: TextStyle(text.fontStyle, alignment: text.multilineTextAlignment))
            modifiers = text.modifiers
        case .image(let image):
            base = ImageNode(image: image)
            modifiers = image.modifiers
        case .sfSymbol(let symbol):
            base = SymbolNode(symbol: symbol)
            modifiers = symbol.modifiers
        case .audio(let audio):
            base = AudioNode(audio: audio)
            modifiers = audio.modifiers
        case .video(let video):
            base = VideoNode(video: video)
            modifiers = video.modifiers
        case .link(let link):
            base = LinkNode(link)
            modifiers = link.modifiers
        case .hStack(let stack):
            base = StackNode(axis: .horizontal, children: stack.elements.map { node(for: $0, axis: .horizontal) },
                             spacing: stack.spacing ?? Theme.stackSpacing, alignment: fraction(stack.alignment))
            modifiers = stack.modifiers
        case .vStack(let stack):
            base = StackNode(axis: .vertical, children: stack.elements.map { node(for: $0, axis: .vertical) },
                             spacing: stack.spacing ?? Theme.stackSpacing, alignment: fraction(stack.alignment))
            modifiers = stack.modifiers
        case .spacer:
            base = SpacerNode()
            modifiers = nil
        case .divider(let divider):
            base = DividerNode(axis: axis, opacity: divider.opacity ?? 0.5)
            modifiers = divider.modifiers
        case .table(let table):
            base = TableNode(table.configuration)
            modifiers = table.modifiers
        case .chart(let chart):
            base = ChartNode(chart: chart)
            modifiers = nil
        case .segmentedControl(let control):
            base = SegmentedControlNode(titles: control.items.map(\.title), items: control.items.map { node(for: $0.component) })
            modifiers = control.modifiers
        case .grid(let grid):
            base = GridNode(rows: grid.rows.map(gridRow))
            modifiers = grid.modifiers
        case .gridRow(let row):
            base = GridNode(rows: [gridRow(.gridRow(row))])
            modifiers = nil
        case .splom(let splom):
            base = SplomNode(splom: splom)
            modifiers = nil
        }
        return MemoizedNode((modifiers ?? []).reduce(base) { $1.apply(to: $0) })
    }

    private static func gridRow(_ component: Component) -> GridNode.Row {
        guard case .gridRow(let row) = component else { return .spanning(node(for: component)) }
        let cells = row.rowElements.map { node(for: $0, axis: .horizontal) }
        guard let modifiers = row.modifiers, !modifiers.isEmpty else { return .cells(cells) }
        // A row with modifiers is drawn as one piece spanning the grid.
        let stack = StackNode(axis: .horizontal, children: cells, spacing: Theme.stackSpacing, alignment: 0.5)
        return .spanning(modifiers.reduce(stack) { $1.apply(to: $0) })
    }

    private static func fraction(_ alignment: HorizontalAlignment?) -> Double {
        switch alignment ?? .center {
        case .leading: 0
        case .center: 0.5
        case .trailing: 1
        }
    }

    private static func fraction(_ alignment: VerticalAlignment?) -> Double {
        switch alignment ?? .center {
        case .top: 0
        case .center: 0.5
        case .bottom: 1
        }
    }
}
