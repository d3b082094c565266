import ARVisGraphics
import ARVisSpec

/// One plotted row of a mark: its channel values, the stacked or ranged extent, series and colour.
struct Datum {
    var row: Int
    var x: PlotValue?
    var y: PlotValue?
    /// The other end of a range (xEnd, yEnd), or of a stacked bar or area segment.
    var x2: PlotValue?
    var y2: PlotValue?
    var series: String?
    var color: DrawingColor
}

/// How a mark is drawn, after the iARVis rules for choosing a variant.
enum MarkVariant {
    case bar(horizontal: Bool)
    case rangeBar, line, point, area, rule, rectangle
}

/// A chart component ready to draw: its variant, table and data rows.
struct PreparedMark {
    let index: Int
    let component: ChartComponent
    let table: PlotTable
    let variant: MarkVariant
    var data: [Datum]
    /// The dodge group of bars (`positionByValue`).
    var group: String { component.config.positionByValue ?? "position" }
}

/// A chart's marks with typed data, series colours and the values each axis must show.
struct PreparedChart {
    var marks: [PreparedMark] = []
    var series: [String] = []
    var x = AxisScale.Collector()
    var y = AxisScale.Collector()
    private var seriesIndex: [String: Int] = [:]

    init(_ chart: Chart) {
        let tables = PlotTable.tables(for: chart)
        for (index, component) in chart.components.enumerated() {
            guard let table = tables[component.config.resolvedDataKey],
                let mark = prepare(component, index: index, table: table)
            else { continue }
            marks.append(mark)
        }
        stack()
        for mark in marks {
            for datum in mark.data {
                x.add(datum.x)
                x.add(datum.x2)
                y.add(datum.y)
                y.add(datum.y2)
            }
            if case .bar(let horizontal) = mark.variant {
                if horizontal {
                    Self.padForBars(&y, mark.data.map(\.y))
                } else {
                    Self.padForBars(&x, mark.data.map(\.x))
                }
            }
        }
    }

    /// Widens a continuous axis by half the closest spacing of bar positions, so the outer bars show whole.
    private static func padForBars(_ axis: inout AxisScale.Collector, _ values: [PlotValue?]) {
        let positions = Set(values.compactMap { $0?.continuous }).sorted()
        guard let first = positions.first, let last = positions.last else { return }
        var gap = positions.count > 1 ? last - first : (values.first??.kind == .date ? 86_400 : 1)
        for index in positions.indices.dropFirst() { gap = min(gap, positions[index] - positions[index - 1]) }
        axis.include(first - gap / 2)
        axis.include(last + gap / 2)
    }

    /// The palette colour of a series, in order of first appearance.
    mutating func seriesColor(_ name: String) -> DrawingColor {
        if let index = seriesIndex[name] { return Theme.palette[index % Theme.palette.count] }
        seriesIndex[name] = series.count
        series.append(name)
        return Theme.palette[(series.count - 1) % Theme.palette.count]
    }

    private mutating func prepare(_ component: ChartComponent, index: Int, table: PlotTable) -> PreparedMark? {
        let config = component.config
        func column(_ descriptor: FieldDescriptor?, numeric: Bool = false) -> PlotColumn? {
            guard let descriptor, let column = table[descriptor.field] else { return nil }
            return numeric ? column.numericIfPossible() : column
        }
        let variant: MarkVariant
        var xs: PlotColumn?
        var ys: PlotColumn?
        var x2s: PlotColumn?
        var y2s: PlotColumn?
        switch component.type {
        case .bar:
            if let start = column(config.xStart, numeric: true), let end = column(config.xEnd, numeric: true),
                let y = column(config.y)
            {
                (variant, xs, x2s, ys) = (.rangeBar, start, end, y)
            } else {
                guard let x = column(config.x), let y = column(config.y) else { return nil }
                let horizontal = y.kind == .text && x.kind != .text
                (variant, xs, ys) = (
                    .bar(horizontal: horizontal), horizontal ? x.numericIfPossible() : x,
                    horizontal ? y : y.numericIfPossible()
                )
            }
        case .line:
            guard let x = column(config.x) else { return nil }
            if let y = column(config.y, numeric: true) {
                (variant, xs, ys) = (.line, x, y)
            } else if let names = config.ySeries {
                return multiSeries(component, index: index, table: table, x: x, names: names)
            } else {
                return nil
            }
        case .point, .area:
            guard let x = column(config.x), let y = column(config.y, numeric: true) else { return nil }
            (variant, xs, ys) = (component.type == .point ? .point : .area, x, y)
        case .rule:
            guard let x = column(config.x) else { return nil }
            (variant, xs) = (.rule, x)
            if let start = column(config.yStart, numeric: true), let end = column(config.yEnd, numeric: true) {
                (ys, y2s) = (start, end)
            }
        case .rectangle:
            guard let xStart = column(config.xStart, numeric: true), let xEnd = column(config.xEnd, numeric: true),
                let yStart = column(config.yStart, numeric: true), let yEnd = column(config.yEnd, numeric: true)
            else { return nil }
            (variant, xs, x2s, ys, y2s) = (.rectangle, xStart, xEnd, yStart, yEnd)
        }
        let seriesColumn = config.foregroundStyleField.flatMap { table[$0] }
        var data: [Datum] = []
        data.reserveCapacity(table.rowCount)
        for row in 0..<table.rowCount {
            let datum = Datum(
                row: row, x: xs?.value(row), y: ys?.value(row), x2: x2s?.value(row), y2: y2s?.value(row),
                series: seriesName(config, seriesColumn, row), color: .black)
            if datum.x == nil && xs != nil { continue }
            if datum.y == nil && ys != nil { continue }
            if (x2s != nil && datum.x2 == nil) || (y2s != nil && datum.y2 == nil) { continue }
            data.append(datum)
        }
        for index in data.indices { data[index].color = color(config, table, data[index]) }
        return PreparedMark(index: index, component: component, table: table, variant: variant, data: data)
    }

    private func seriesName(_ config: MarkConfiguration, _ column: PlotColumn?, _ row: Int) -> String? {
        if let column { return row < column.raw.count ? column.raw[row].text ?? "" : nil }
        return config.foregroundStyleValue
    }

    private mutating func multiSeries(
        _ component: ChartComponent, index: Int, table: PlotTable, x: PlotColumn, names: [String]
    ) -> PreparedMark {
        var data: [Datum] = []
        for name in names {
            guard let values = table[name]?.numericIfPossible() else { continue }
            let color = component.config.foregroundStyleColor.map(Theme.color) ?? seriesColor(name)
            for row in 0..<table.rowCount {
                guard let xValue = x.value(row), let yValue = values.value(row) else { continue }
                data.append(Datum(row: row, x: xValue, y: yValue, series: name, color: color))
            }
        }
        return PreparedMark(index: index, component: component, table: table, variant: .line, data: data)
    }

    /// The colour of one datum: explicit colour, then the first matching colour-map entry, then its series, then blue.
    private mutating func color(_ config: MarkConfiguration, _ table: PlotTable, _ datum: Datum) -> DrawingColor {
        // Every series takes its palette slot, even where an explicit colour covers it, as in Swift Charts.
        let series = datum.series.map { seriesColor($0) }
        if let color = config.foregroundStyleColor { return Theme.color(color) }
        for entry in config.foregroundStyleColorMap ?? [] {
            if let column = table[entry.field], datum.row < column.raw.count, column.raw[datum.row].matches(entry.value)
            {
                return Theme.color(entry.color)
            }
        }
        return series ?? Theme.palette[0]
    }

    /// Stacks bars that share a category (per dodge group) and areas that share an x, per their stacking.
    private mutating func stack() {
        var barTotals: [String: (positive: Double, negative: Double)] = [:]
        for markIndex in marks.indices {
            switch marks[markIndex].variant {
            case .bar(let horizontal):
                let group = marks[markIndex].group
                for index in marks[markIndex].data.indices {
                    let datum = marks[markIndex].data[index]
                    guard let category = horizontal ? datum.y : datum.x,
                        let value = (horizontal ? datum.x : datum.y)?.continuous
                    else { continue }
                    let key = "\(group)\u{1}\(category)"
                    var totals = barTotals[key] ?? (0, 0)
                    let base = value >= 0 ? totals.positive : totals.negative
                    if value >= 0 { totals.positive += value } else { totals.negative += value }
                    barTotals[key] = totals
                    if horizontal {
                        marks[markIndex].data[index].x2 = .number(base)
                        marks[markIndex].data[index].x = .number(base + value)
                    } else {
                        marks[markIndex].data[index].y2 = .number(base)
                        marks[markIndex].data[index].y = .number(base + value)
                    }
                }
            case .area:
                stackArea(&marks[markIndex])
            default: break
            }
        }
    }

    private func stackArea(_ mark: inout PreparedMark) {
        let stacking = mark.component.config.stacking ?? .standard
        var totals: [PlotValue: Double] = [:]
        for datum in mark.data {
            guard let x = datum.x, let value = datum.y?.continuous else { continue }
            totals[x, default: 0] += abs(value)
        }
        var running: [PlotValue: Double] = [:]
        for index in mark.data.indices {
            guard let x = mark.data[index].x, let value = mark.data[index].y?.continuous else { continue }
            let total = totals[x] ?? 0
            var base = stacking == .unstacked ? 0 : running[x, default: 0]
            var top = base + value
            running[x] = top
            switch stacking {
            case .normalized where total > 0:
                base /= total
                top /= total
            case .center:
                base -= total / 2
                top -= total / 2
            default: break
            }
            mark.data[index].y2 = .number(base)
            mark.data[index].y = .number(top)
        }
    }
}

extension PlotColumn {
    func value(_ row: Int) -> PlotValue? { row < values.count ? values[row] : nil }
}

extension DataValue {
    /// Equality as iARVis compares raw cells with annotation and colour-map values (numbers by value).
    func matches(_ other: DataValue) -> Bool {
        if let a = number, let b = other.number { return a == b }
        return self == other
    }
}
