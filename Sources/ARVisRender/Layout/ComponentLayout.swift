import ARVisGraphics
import ARVisSpec

/// Builds the layout tree for a component, applying its modifiers in order.
enum ComponentLayout {
    static func node(for component: Component, axis: Axis = .vertical) -> any LayoutNode {
        let base: any LayoutNode =
            switch component {
            case .text(let text):
                TextBlock(
                    markdown: text.content, style: TextStyle(text.fontStyle, alignment: text.multilineTextAlignment))
            case .image(let image): ImageNode(image: image)
            case .sfSymbol(let symbol): SymbolNode(symbol: symbol)
            case .audio(let audio): AudioNode(audio: audio)
            case .video(let video): VideoNode(video: video)
            case .link(let link): LinkNode(link)
            case .hStack(let stack):
                StackNode(
                    axis: .horizontal, children: stack.elements.map { node(for: $0, axis: .horizontal) },
                    spacing: stack.spacing ?? Theme.stackSpacing, alignment: fraction(stack.alignment))
            case .vStack(let stack):
                StackNode(
                    axis: .vertical, children: stack.elements.map { node(for: $0, axis: .vertical) },
                    spacing: stack.spacing ?? Theme.stackSpacing, alignment: fraction(stack.alignment))
            case .spacer: SpacerNode()
            case .divider(let divider): DividerNode(axis: axis, opacity: divider.opacity ?? 0.5)
            case .table(let table): TableNode(table.configuration)
            case .chart(let chart): ChartNode(chart: chart)
            case .segmentedControl(let control):
                SegmentedControlNode(
                    titles: control.items.map(\.title), items: control.items.map { node(for: $0.component) })
            case .grid(let grid): GridNode(rows: grid.rows.map(gridRow))
            case .gridRow(let row): GridNode(rows: [.cells(row.rowElements.map { node(for: $0, axis: .horizontal) })])
            case .splom(let splom): SplomNode(splom: splom)
            }
        return MemoizedNode(applying(component.modifiers, to: base))
    }

    private static func applying(_ modifiers: [Modifier], to node: any LayoutNode) -> any LayoutNode {
        modifiers.reduce(node) { $1.apply(to: $0) }
    }

    private static func gridRow(_ component: Component) -> GridNode.Row {
        guard case .gridRow(let row) = component else { return .spanning(node(for: component)) }
        let cells = row.rowElements.map { node(for: $0, axis: .horizontal) }
        guard let modifiers = row.modifiers, !modifiers.isEmpty else { return .cells(cells) }
        // A row with modifiers is drawn as one piece spanning the grid.
        let stack = StackNode(axis: .horizontal, children: cells, spacing: Theme.stackSpacing, alignment: 0.5)
        return .spanning(applying(modifiers, to: stack))
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
