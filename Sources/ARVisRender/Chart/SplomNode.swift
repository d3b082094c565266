import ARVisGraphics
import ARVisSpec
import ARVisSupport

/// `splom`: a scatter-plot matrix as iARVis draws it — a scatter of every pair of fields in every
/// cell (the diagonal too), each cell with its own grid, the numbers only on the bottom row and
/// the leading column, and light 12 pt field names turned up the left side and under the grid,
/// coloured by the colour map's (or style field's) series.
final class SplomNode: LayoutNode {
    let splom: Component.Splom
    private let table: PlotTable
    /// iARVis's room for the names: 30 pt on the left and 30 pt below the grid.
    private let nameGutter = 30.0
    /// Space for the bottom row's numbers and the leading column's, inside the grid.
    private let xNumbersHeight = 14.0, yNumbersWidth = 30.0
    /// The gap around each cell (iARVis pads each row by 1 pt).
    private let cellPadding = 1.0
    private static let nameStyle = TextStyle(size: 12, weight: .light, alignment: .center, lineLimit: 1)
    private static let numberStyle = TextStyle(size: 9, color: Theme.secondary, lineLimit: 1)

    init(splom: Component.Splom) {
        self.splom = splom
        table = PlotTable(DataSource(label: "splom", data: splom.data), dateFormats: [:])
    }

    private var titles: [String] {
        if let labels = splom.labels, labels.count == splom.fields.count { return labels }
        return splom.fields
    }

    /// The whole space offered, as iARVis's `GeometryReader` takes it (square when the height is open).
    func size(for proposal: Proposal, in context: RenderContext) -> Size {
        let width = min(proposal.width ?? 640, 4096)
        return Size(width: width, height: min(proposal.height ?? width, 4096))
    }

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        let fields = splom.fields
        guard !fields.isEmpty, rect.width > nameGutter + yNumbersWidth, rect.height > nameGutter + xNumbersHeight
        else { return [] }
        let count = Double(fields.count)
        let grid = Rect(
            x: rect.minX + nameGutter + yNumbersWidth, y: rect.minY,
            width: rect.width - nameGutter - yNumbersWidth, height: rect.height - nameGutter - xNumbersHeight)
        let cell = Size(width: grid.width / count, height: grid.height / count)
        let columns = fields.map { table[$0]?.numericIfPossible() }
        let colors = pointColors()
        let symbol =
            splom.config?.symbolSize.map { Size(width: $0.width, height: $0.height) } ?? Size(width: 2, height: 2)
        var xScales: [AxisScale] = []
        var yScales: [AxisScale] = []
        var xTicks: [[Tick]] = []
        var yTicks: [[Tick]] = []
        for (index, column) in columns.enumerated() {
            let plotWidth = cell.width - 2 * cellPadding
            var x = Self.scale(column, from: grid.minX + Double(index) * cell.width + cellPadding, length: plotWidth)
            xTicks.append(x.makeTicks(length: plotWidth, spacing: 40, axis: nil))
            xScales.append(x)
            let plotHeight = cell.height - 2 * cellPadding
            let top = grid.minY + Double(index) * cell.height + cellPadding
            var y = Self.scale(column, from: top + plotHeight, length: -plotHeight)
            yTicks.append(y.makeTicks(length: plotHeight, spacing: 30, axis: nil))
            yScales.append(y)
        }
        var elements: [Element] = []
        for row in fields.indices {
            for column in fields.indices {
                let box = Rect(
                    x: grid.minX + Double(column) * cell.width + cellPadding,
                    y: grid.minY + Double(row) * cell.height + cellPadding, width: cell.width - 2 * cellPadding,
                    height: cell.height - 2 * cellPadding)
                elements += gridLines(box, x: xTicks[column], y: yTicks[row])
                elements += scatter(
                    x: columns[column], y: columns[row], scales: (xScales[column], yScales[row]), colors: colors,
                    size: symbol)
            }
        }
        elements += numbers(xTicks: xTicks, yTicks: yTicks, grid: grid, context: context)
        elements += names(grid: grid, cell: cell, left: rect.minX, context: context)
        return elements
    }

    /// A linear scale over a field's values (zero included, widened to whole ticks, as Swift Charts' automatic scale).
    private static func scale(_ column: PlotColumn?, from start: Double, length: Double) -> AxisScale {
        var values = AxisScale.Collector()
        for value in column?.values ?? [] {
            if let number = value?.continuous { values.include(number) }
        }
        values.sawNumber = true
        var scale = AxisScale(values, configuration: nil)
        scale.start = start
        scale.end = start + length
        return scale
    }

    /// A cell's grid lines at its x and y ticks.
    private func gridLines(_ box: Rect, x: [Tick], y: [Tick]) -> [Element] {
        var path = Path()
        for tick in x {
            path.move(to: Point(tick.position, box.minY))
            path.line(to: Point(tick.position, box.maxY))
        }
        for tick in y {
            path.move(to: Point(box.minX, tick.position))
            path.line(to: Point(box.maxX, tick.position))
        }
        return [.shape(Shape(path: path, stroke: Stroke(color: Theme.gridLine, width: 0.5)))]
    }

    /// The numbers: each column's x ticks under the bottom row, each row's y ticks left of the first
    /// column; a number that would touch one already placed is left out, as Swift Charts resolves
    /// colliding axis labels (each axis on its own), a cell's lowest number first.
    private func numbers(xTicks: [[Tick]], yTicks: [[Tick]], grid: Rect, context: RenderContext) -> [Element] {
        var placed: [Rect] = []
        var elements: [Element] = []
        func place(_ text: String, in box: Rect, _ style: TextStyle) {
            let width = TextBlock(plain: text, style: style).layout(width: nil, context).width
            let x =
                switch style.alignment {
                case .center: box.midX - width / 2
                case .trailing: box.maxX - width
                case .leading: box.minX
                }
            let ink = Rect(x: x - 2, y: box.minY, width: width + 4, height: box.height)
            guard !placed.contains(where: { $0.intersection(ink).width > 0 && $0.intersection(ink).height > 0 })
            else { return }
            placed.append(ink)
            elements += TextBlock(plain: text, style: style).draw(in: box, context: context)
        }
        var centred = Self.numberStyle
        centred.alignment = .center
        // Each cell's lowest number (often 0) gives way to its neighbour's highest: placed last.
        func lowestLast(_ ticks: [[Tick]]) -> [Tick] {
            ticks.flatMap { $0.dropFirst() } + ticks.compactMap(\.first)
        }
        for tick in lowestLast(xTicks) {
            place(tick.label, in: Rect(x: tick.position - 20, y: grid.maxY + 2, width: 40, height: 11), centred)
        }
        // The two axes meet only at the bottom-left corner, where both keep their numbers.
        placed.removeAll()
        var trailing = Self.numberStyle
        trailing.alignment = .trailing
        for tick in lowestLast(yTicks) {
            place(
                tick.label,
                in: Rect(x: grid.minX - yNumbersWidth, y: tick.position - 5.5, width: yNumbersWidth - 3, height: 11),
                trailing)
        }
        return elements
    }

    /// The field names: turned up the left side beside their rows, and under the grid below their columns.
    private func names(grid: Rect, cell: Size, left: Double, context: RenderContext) -> [Element] {
        var elements: [Element] = []
        for (index, title) in titles.enumerated() {
            let name = TextBlock(plain: title, style: Self.nameStyle)
            let below = Rect(
                x: grid.minX + Double(index) * cell.width + 1, y: grid.maxY + xNumbersHeight + 8,
                width: cell.width - 2, height: 16)
            elements += name.draw(in: below, context: context)
            let turned = Transform.translation(left + nameGutter / 2, grid.minY + (Double(index) + 0.5) * cell.height)
                .concatenating(.rotation(degrees: -90))
            let row = Rect(x: -cell.height / 2 + 1, y: -8, width: cell.height - 2, height: 16)
            elements.append(.group(Group(name.draw(in: row, context: context), transform: turned, label: title)))
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
        x: PlotColumn?, y: PlotColumn?, scales: (AxisScale, AxisScale), colors: [DrawingColor], size: Size
    ) -> [Element] {
        guard let x, let y, size.width > 0, size.height > 0 else { return [] }
        var byColor: [DrawingColor: Path] = [:]
        var order: [DrawingColor] = []
        for row in 0..<table.rowCount {
            guard let xv = x.value(row)?.continuous, let yv = y.value(row)?.continuous else { continue }
            let px = scales.0.position(of: xv)
            let py = scales.1.position(of: yv)
            let color = row < colors.count ? colors[row] : Theme.palette[0]
            if byColor[color] == nil { order.append(color) }
            byColor[color, default: Path()].append(
                .ellipse(
                    in: Rect(x: px - size.width / 2, y: py - size.height / 2, width: size.width, height: size.height)))
        }
        return order.map { .shape(Shape(path: byColor[$0]!, fill: $0)) }
    }
}
