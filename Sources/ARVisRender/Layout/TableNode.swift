import ARVisGraphics
import ARVisSpec
import ARVisSupport

/// `table`, as iARVis draws it (`TableView.swift`): `vertical`, one row per title — the title in
/// bold, then its values; `horizontal`, the titles in bold as a header row over one row per record,
/// everything trailing-aligned. Every column is as wide as the others (SwiftUI's `HStack` of
/// `maxWidth: .infinity` cells, 8 points apart), its text wrapping; a thin rule runs above, between
/// and below the rows, 16 points from the text; no fill and no border. A missing value shows "-".
struct TableNode: LayoutNode {
    /// Cells by row, then column.
    let rows: [[TextBlock]]
    /// Between columns (SwiftUI's default `HStack` spacing).
    static let spacing = 8.0
    /// Between a rule and the text above and below it (SwiftUI's default padding).
    static let rulePadding = 16.0
    /// A rule's thickness, and its colour (`Color.primary.opacity(0.3)`).
    static let ruleWidth = 1.0
    static let ruleColor = Theme.primary.fading(0.3)

    init(_ configuration: TableConfiguration) {
        let data = configuration.tableData
        let titles = data.titles ?? data.data.columnNames
        let count = max(0, min(data.length ?? data.data.rowCount, data.data.rowCount))
        let columns = titles.map { title -> [String] in
            let values = data.data[title]?.values ?? []
            return (0..<count).map { $0 < values.count ? (values[$0].text ?? "-") : "-" }
        }
        let alignment: TextAlignment = configuration.orientation == .horizontal ? .trailing : .leading
        let title = TextStyle(weight: .bold, alignment: alignment)
        let value = TextStyle(alignment: alignment)
        if configuration.orientation == .horizontal {
            rows =
                [titles.map { TextBlock(markdown: $0, style: title) }]
                + (0..<count).map { row in columns.map { TextBlock(markdown: $0[row], style: value) } }
        } else {
            rows = titles.indices.map { index in
                [TextBlock(markdown: titles[index], style: title)]
                    + columns[index].map { TextBlock(markdown: $0, style: value) }
            }
        }
    }

    private var columnCount: Int { rows.map(\.count).max() ?? 0 }

    /// Each column's width: an equal share of `width`, or (with no width) the widest cell's.
    private func columnWidth(_ width: Double?, _ context: RenderContext) -> Double {
        let columns = Double(max(1, columnCount))
        if let width { return max(1, (width - Self.spacing * (columns - 1)) / columns) }
        return rows.joined().map { $0.size(for: .ideal, in: context).width }.max() ?? 0
    }

    private func rowHeights(_ columnWidth: Double, _ context: RenderContext) -> [Double] {
        rows.map { row in
            row.map { $0.size(for: Proposal(width: columnWidth, height: nil), in: context).height }.max() ?? 0
        }
    }

    /// The height a rule takes with its padding.
    private static var ruleSpan: Double { 2 * rulePadding + ruleWidth }

    func size(for proposal: Proposal, in context: RenderContext) -> Size {
        let width = columnWidth(proposal.width, context)
        let columns = Double(columnCount)
        return Size(
            width: proposal.width ?? max(0, width * columns + Self.spacing * (columns - 1)),
            height: rowHeights(width, context).reduce(0, +) + Double(rows.count + 1) * Self.ruleSpan)
    }

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        let width = columnWidth(rect.width, context)
        let heights = rowHeights(width, context)
        var elements: [Element] = []
        var y = rect.minY
        func rule() {
            elements.append(
                .shape(
                    Shape(
                        path: .rect(
                            Rect(x: rect.minX, y: y + Self.rulePadding, width: rect.width, height: Self.ruleWidth)),
                        fill: Self.ruleColor)))
            y += Self.ruleSpan
        }
        rule()
        for (row, height) in zip(rows, heights) {
            for (column, cell) in row.enumerated() {
                let x = rect.minX + Double(column) * (width + Self.spacing)
                elements += cell.draw(in: Rect(x: x, y: y, width: width, height: height), context: context)
            }
            y += height
            rule()
        }
        return elements
    }
}

/// `segmentedControl`: a row of segments above the selected item's content; in HTML every item is
/// present and the buttons switch between them.
struct SegmentedControlNode: LayoutNode {
    let titles: [TextBlock]
    let items: [any LayoutNode]
    private let barHeight = 32.0
    private let gap = 12.0

    init(titles: [String], items: [any LayoutNode]) {
        self.titles = titles.map {
            TextBlock(plain: $0, style: TextStyle(size: 13, weight: .medium, alignment: .center, lineLimit: 1))
        }
        self.items = items
    }

    private func barWidth(_ proposal: Proposal, _ context: RenderContext) -> Double {
        let widest = titles.map { $0.size(for: .ideal, in: context).width }.max() ?? 0
        let ideal = (widest + 28) * Double(titles.count)
        return min(proposal.width ?? ideal, max(ideal, 0))
    }

    /// The bar and the selected (first) item, as SwiftUI sizes a segmented view: the other items
    /// do not make the card taller.
    func size(for proposal: Proposal, in context: RenderContext) -> Size {
        let selected =
            items.first?.size(for: Proposal(width: proposal.width, height: nil), in: context)
            ?? Size(width: 0, height: 0)
        return Size(
            width: max(barWidth(proposal, context), selected.width), height: barHeight + gap + selected.height)
    }

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        let control = context.makeID("segments")
        let width = barWidth(Proposal(width: rect.width, height: nil), context)
        let bar = Rect(x: rect.minX + (rect.width - width) / 2, y: rect.minY, width: width, height: barHeight)
        var elements: [Element] = [.shape(Shape(path: .roundedRect(bar, radius: 8), fill: Theme.tertiaryFill))]
        let segmentWidth = titles.isEmpty ? 0 : width / Double(titles.count)
        for (index, title) in titles.enumerated() {
            let segment = Rect(
                x: bar.minX + Double(index) * segmentWidth, y: bar.minY, width: segmentWidth, height: barHeight)
            let pill = Shape(
                path: .roundedRect(segment.inset(top: 2, left: 2, bottom: 2, right: 2), radius: 7),
                fill: index == 0 ? .white : DrawingColor.white.fading(0))
            let label = title.draw(in: segment.inset(top: 7, left: 6, bottom: 7, right: 6), context: context)
            elements.append(
                .group(
                    Group(
                        [.shape(pill)] + label,
                        label: "Show \(title.spans.first?.text ?? "")",
                        role: .segmentButton(control: control, index: index))))
        }
        let contentTop = rect.minY + barHeight + gap
        for (index, item) in items.enumerated() {
            let size = item.size(for: Proposal(width: rect.width, height: nil), in: context)
            let frame = Rect(
                x: rect.minX + (rect.width - size.width) / 2, y: contentTop, width: size.width, height: size.height)
            elements.append(
                .group(
                    Group(
                        item.draw(in: frame, context: context),
                        role: .segment(control: control, index: index, selected: index == 0))))
        }
        return elements
    }
}
