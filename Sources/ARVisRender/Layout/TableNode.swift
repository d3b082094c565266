import ARVisGraphics
import ARVisSpec

/// `table`: titles and values as a grid of Markdown cells, vertical (a header row on top) or
/// horizontal (a header column on the left).
struct TableNode: LayoutNode {
    /// Cells by row, then column.
    let cells: [[TextBlock]]
    let headerRow: Bool
    private let padding = (horizontal: 10.0, vertical: 6.0)

    init(_ configuration: TableConfiguration) {
        let data = configuration.tableData
        let titles = data.titles ?? data.data.columnNames
        let count = max(0, min(data.length ?? data.data.rowCount, data.data.rowCount))
        let columns = titles.map { title -> [String] in
            let values = data.data[title]?.values ?? []
            return (0..<count).map { $0 < values.count ? (values[$0].text ?? "") : "" }
        }
        let header = TextStyle(size: 15, weight: .semibold)
        let body = TextStyle(size: 15)
        if configuration.orientation == .horizontal {
            headerRow = false
            cells = titles.indices.map { column in
                [TextBlock(markdown: titles[column], style: header)]
                    + columns[column].map { TextBlock(markdown: $0, style: body) }
            }
        } else {
            headerRow = true
            cells =
                [titles.map { TextBlock(markdown: $0, style: header) }]
                + (0..<count).map { row in columns.map { TextBlock(markdown: $0[row], style: body) } }
        }
    }

    private var columnCount: Int { cells.map(\.count).max() ?? 0 }

    /// Column widths as an HTML table shares them: each column at least as wide as its longest word,
    /// the space beyond that shared in proportion to how much more each column would like.
    private func columnWidths(_ width: Double?, _ context: RenderContext) -> [Double] {
        var ideals = [Double](repeating: 0, count: columnCount)
        var minimums = ideals
        for row in cells {
            for (column, cell) in row.enumerated() {
                ideals[column] = max(ideals[column], cell.size(for: .ideal, in: context).width + 2 * padding.horizontal)
                minimums[column] = max(minimums[column], cell.longestWordWidth(context) + 2 * padding.horizontal)
            }
        }
        let idealTotal = ideals.reduce(0, +)
        let minimumTotal = minimums.reduce(0, +)
        guard let width, idealTotal > width else { return ideals }
        guard minimumTotal < width, idealTotal > minimumTotal else { return minimums }
        let share = (width - minimumTotal) / (idealTotal - minimumTotal)
        return ideals.indices.map { minimums[$0] + (ideals[$0] - minimums[$0]) * share }
    }

    private func rowHeights(_ widths: [Double], _ context: RenderContext) -> [Double] {
        cells.map { row in
            row.enumerated().map { column, cell in
                cell.size(
                    for: Proposal(width: max(1, widths[column] - 2 * padding.horizontal), height: nil), in: context
                ).height
            }.max().map { $0 + 2 * padding.vertical } ?? 0
        }
    }

    /// A table wider than its space scrolls sideways, as on the device: it takes the space, clips,
    /// and shows a horizontal scroll indicator.
    func size(for proposal: Proposal, in context: RenderContext) -> Size {
        let widths = columnWidths(proposal.width, context)
        let width = widths.reduce(0, +)
        let overflows = proposal.width.map { width > $0 + 0.5 } ?? false
        return Size(
            width: min(width, proposal.width ?? width),
            height: rowHeights(widths, context).reduce(0, +) + (overflows ? 8 : 0))
    }

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        let widths = columnWidths(rect.width, context)
        let heights = rowHeights(widths, context)
        let total = Rect(x: rect.minX, y: rect.minY, width: widths.reduce(0, +), height: heights.reduce(0, +))
        var elements: [Element] = [
            .shape(Shape(path: .roundedRect(total, radius: 8), stroke: Stroke(color: Theme.separator, width: 1)))
        ]
        if headerRow, let first = heights.first {
            elements.append(
                .shape(
                    Shape(
                        path: .rect(Rect(x: total.minX, y: total.minY, width: total.width, height: first)),
                        fill: Theme.tertiaryFill)))
        } else if let first = widths.first {
            elements.append(
                .shape(
                    Shape(
                        path: .rect(Rect(x: total.minX, y: total.minY, width: first, height: total.height)),
                        fill: Theme.tertiaryFill)))
        }
        var y = rect.minY
        for (rowIndex, row) in cells.enumerated() {
            var x = rect.minX
            if rowIndex > 0 {
                elements.append(
                    .shape(
                        Shape(
                            path: .rect(Rect(x: total.minX, y: y - 0.25, width: total.width, height: 0.5)),
                            fill: Theme.separator)))
            }
            for (column, cell) in row.enumerated() {
                let inner = Rect(
                    x: x + padding.horizontal, y: y + padding.vertical,
                    width: max(1, widths[column] - 2 * padding.horizontal),
                    height: heights[rowIndex] - 2 * padding.vertical)
                elements += cell.draw(in: inner, context: context)
                x += widths[column]
            }
            y += heights[rowIndex]
        }
        var result: [Element] = [.group(Group(elements, clip: .roundedRect(total.intersection(rect), radius: 8)))]
        if total.width > rect.width + 0.5 {
            let visible = rect.width / total.width
            let bar = Rect(x: rect.minX + 8, y: total.maxY + 3, width: max(12, (rect.width - 16) * visible), height: 3)
            result.append(
                .shape(
                    Shape(
                        path: .roundedRect(bar, radius: 1.5),
                        fill: DrawingColor(red: 0, green: 0, blue: 0, opacity: 0.35))))
        }
        return result
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
