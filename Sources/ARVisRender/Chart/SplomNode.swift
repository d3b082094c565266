import ARVisGraphics
import ARVisSpec
import ARVisSupport

/// `splom`: a scatter-plot matrix — every pair of fields as a small scatter plot, each field's
/// distribution as a histogram on the diagonal, coloured by the colour map's (or style field's) series.
final class SplomNode: LayoutNode {
    let splom: Component.Splom
    private let table: PlotTable
    private let gap = 4.0
    private let labelHeight = 16.0
    /// Room at the left for the row titles and the outer y axes' numbers, and at the bottom for the x axes'.
    private let leftGutter = 52.0, bottomGutter = 14.0

    init(splom: Component.Splom) {
        self.splom = splom
        table = PlotTable(DataSource(label: "splom", data: splom.data), dateFormats: [:])
    }

    private var titles: [String] {
        if let labels = splom.labels, labels.count == splom.fields.count { return labels }
        return splom.fields
    }

    func size(for proposal: Proposal, in context: RenderContext) -> Size {
        let width = min(proposal.width ?? 640, 900)
        return Size(width: width, height: width - leftGutter + labelHeight + bottomGutter)
    }

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        let fields = splom.fields
        guard !fields.isEmpty else { return [] }
        let count = Double(fields.count)
        let grid = Rect(
            x: rect.minX + leftGutter, y: rect.minY + labelHeight, width: rect.width - leftGutter,
            height: rect.height - labelHeight - bottomGutter)
        let cell = max(1, (min(grid.width, grid.height) - gap * (count - 1)) / count)
        let columns = fields.map { table[$0]?.numericIfPossible() }
        let ranges = columns.map { column -> (Double, Double) in
            let values = column?.values.compactMap { $0?.continuous } ?? []
            guard let low = values.min(), let high = values.max() else { return (0, 1) }
            let pad = high > low ? (high - low) * 0.05 : 1
            return (low - pad, high + pad)
        }
        let colors = pointColors()
        var elements: [Element] = []
        elements += titlesAndAxes(titles, ranges: ranges, grid: grid, cell: cell, context: context)
        let size =
            splom.config?.symbolSize.map { Size(width: $0.width, height: $0.height) } ?? Size(width: 2, height: 2)
        for row in fields.indices {
            for column in fields.indices {
                let box = Rect(
                    x: grid.minX + Double(column) * (cell + gap), y: grid.minY + Double(row) * (cell + gap),
                    width: cell, height: cell)
                elements.append(
                    .shape(
                        Shape(
                            path: .rect(box), fill: Theme.tertiaryFill.fading(0.5),
                            stroke: Stroke(color: Theme.gridLine, width: 0.5))))
                if row == column {
                    elements += histogram(
                        columns[row], range: ranges[row], in: box.inset(top: 4, left: 4, bottom: 4, right: 4))
                } else {
                    elements += scatter(
                        x: columns[column], y: columns[row], ranges: (ranges[column], ranges[row]), colors: colors,
                        size: size, in: box)
                }
            }
        }
        return elements
    }

    /// Column titles above the matrix, row titles turned up the left side, and each field's lowest
    /// and highest value on the outer axes: below the bottom row and left of the first column.
    private func titlesAndAxes(
        _ titles: [String], ranges: [(Double, Double)], grid: Rect, cell: Double, context: RenderContext
    ) -> [Element] {
        let titleStyle = TextStyle(size: 11, weight: .semibold, alignment: .center, lineLimit: 1)
        let numberStyle = TextStyle(size: 9, color: Theme.secondary, lineLimit: 1)
        var elements: [Element] = []
        let bottom = grid.minY + Double(titles.count) * (cell + gap) - gap
        for (index, title) in titles.enumerated() {
            let offset = Double(index) * (cell + gap)
            elements += TextBlock(plain: title, style: titleStyle).draw(
                in: Rect(x: grid.minX + offset, y: grid.minY - labelHeight, width: cell, height: 14), context: context)
            let row = Rect(x: -cell / 2, y: -7, width: cell, height: 14)
            let turned = Transform.translation(grid.minX - leftGutter + 8, grid.minY + offset + cell / 2).concatenating(
                .rotation(degrees: -90))
            elements.append(
                .group(
                    Group(
                        TextBlock(plain: title, style: titleStyle).draw(in: row, context: context), transform: turned,
                        label: title)))
            let (low, high) = ranges[index]
            let step = max((high - low) / 4, .leastNormalMagnitude)
            let largest = max(abs(low), abs(high))
            let lowText = AxisScale.numberLabel(low, step: step, largest: largest)
            let highText = AxisScale.numberLabel(high, step: step, largest: largest)
            elements += TextBlock(plain: lowText, style: numberStyle).draw(
                in: Rect(x: grid.minX + offset, y: bottom + 2, width: cell / 2, height: 12), context: context)
            var trailing = numberStyle
            trailing.alignment = .trailing
            elements += TextBlock(plain: highText, style: trailing).draw(
                in: Rect(x: grid.minX + offset + cell / 2, y: bottom + 2, width: cell / 2, height: 12), context: context
            )
            let axis = Rect(x: grid.minX - leftGutter + 16, y: 0, width: leftGutter - 20, height: 12)
            elements += TextBlock(plain: highText, style: trailing).draw(
                in: Rect(x: axis.minX, y: grid.minY + offset, width: axis.width, height: 12), context: context)
            elements += TextBlock(plain: lowText, style: trailing).draw(
                in: Rect(x: axis.minX, y: grid.minY + offset + cell - 12, width: axis.width, height: 12),
                context: context)
        }
        return elements
    }

    /// Per-row colours: the colour map's first matching entry, else the series palette, else blue.
    private func pointColors() -> [DrawingColor] {
        let config = splom.config
        let seriesField = config?.foregroundStyleColorMap?.first?.field ?? config?.foregroundStyleField
        var palette: [String: DrawingColor] = [:]
        return (0..<table.rowCount).map { row in
            if let color = config?.foregroundStyleColor { return Theme.color(color) }
            for entry in config?.foregroundStyleColorMap ?? [] {
                if let column = table[entry.field], row < column.raw.count, column.raw[row].matches(entry.value) {
                    return Theme.color(entry.color)
                }
            }
            if let seriesField, let column = table[seriesField], row < column.raw.count, let name = column.raw[row].text
            {
                if let color = palette[name] { return color }
                let color = Theme.palette[palette.count % Theme.palette.count]
                palette[name] = color
                return color
            }
            return Theme.palette[0]
        }
    }

    private func scatter(
        x: PlotColumn?, y: PlotColumn?, ranges: ((Double, Double), (Double, Double)), colors: [DrawingColor],
        size: Size, in box: Rect
    ) -> [Element] {
        guard let x, let y, size.width > 0, size.height > 0 else { return [] }
        var byColor: [DrawingColor: Path] = [:]
        var order: [DrawingColor] = []
        for row in 0..<table.rowCount {
            guard let xv = x.value(row)?.continuous, let yv = y.value(row)?.continuous else { continue }
            let px = box.minX + (xv - ranges.0.0) / (ranges.0.1 - ranges.0.0) * box.width
            let py = box.maxY - (yv - ranges.1.0) / (ranges.1.1 - ranges.1.0) * box.height
            let color = row < colors.count ? colors[row] : Theme.palette[0]
            if byColor[color] == nil { order.append(color) }
            byColor[color, default: Path()].append(
                .ellipse(
                    in: Rect(x: px - size.width / 2, y: py - size.height / 2, width: size.width, height: size.height)))
        }
        return order.map { .shape(Shape(path: byColor[$0]!, fill: $0.fading(0.7))) }
    }

    private func histogram(_ column: PlotColumn?, range: (Double, Double), in box: Rect) -> [Element] {
        let values = column?.values.compactMap { $0?.continuous } ?? []
        guard !values.isEmpty else { return [] }
        let binCount = 12
        var bins = [Int](repeating: 0, count: binCount)
        for value in values {
            let index = Int(saturating: (value - range.0) / (range.1 - range.0) * Double(binCount))
            bins[min(binCount - 1, max(0, index))] += 1
        }
        let tallest = Double(bins.max() ?? 1)
        let width = box.width / Double(binCount)
        var path = Path()
        for (index, count) in bins.enumerated() where count > 0 {
            let height = Double(count) / tallest * box.height
            path.append(
                .rect(
                    Rect(
                        x: box.minX + Double(index) * width + 0.5, y: box.maxY - height, width: max(0.5, width - 1),
                        height: height)))
        }
        return [.shape(Shape(path: path, fill: Theme.palette[0].fading(0.6)))]
    }
}
