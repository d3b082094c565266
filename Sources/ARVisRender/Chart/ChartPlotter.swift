import ARVisGraphics
import ARVisSpec
import ARVisSupport
import Foundation

/// Draws one chart into a frame: legend, axes with ticks and grid lines, marks, annotations and tooltips.
struct ChartPlotter {
    let chart: Chart
    var prepared: PreparedChart
    let frame: Rect
    /// The widget's area around the chart: what annotations beside marks may reach into.
    let margins: Rect
    let context: RenderContext
    var xScale: AxisScale
    var yScale: AxisScale
    var plot: Rect

    static let labelSize = 11.0
    static let labelStyle = TextStyle(size: labelSize, color: Theme.secondary, lineLimit: 1)

    init(chart: Chart, prepared: PreparedChart, frame: Rect, margins: Rect? = nil, context: RenderContext) {
        self.chart = chart
        self.prepared = prepared
        self.frame = frame
        self.margins = margins ?? frame
        self.context = context
        xScale = AxisScale(prepared.x, configuration: chart.chartXScale)
        yScale = AxisScale(prepared.y, configuration: chart.chartYScale)
        plot = frame
    }

    var labelFont: TrueTypeFont { context.fonts.font(for: .regular) }

    func labelWidth(_ text: String) -> Double { labelFont.width(of: text, size: Self.labelSize) }

    mutating func draw() -> [Element] {
        guard frame.width > 4, frame.height > 4 else { return [] }
        guard prepared.marks.contains(where: { !$0.data.isEmpty }) else { return emptyMessage() }
        var elements: [Element] = []
        let legend = legendLayout()
        var area = frame.inset(top: 0, left: 0, bottom: legend.height, right: 0)
        let xHidden = chart.chartXAxis?.hidden == true
        let yHidden = chart.chartYAxis?.hidden == true

        // The y labels' width depends on the ticks, which depend on the plot height: estimate, then settle.
        var yLabels: [Tick] = []
        var yLabelWidth = 0.0
        if !yHidden {
            var probe = yScale
            probe.start = area.maxY - 20
            probe.end = area.minY
            let ticks = probe.makeTicks(length: max(1, area.height - 20), spacing: 45, axis: chart.chartYAxis)
            yLabelWidth = min(frame.width * 0.35, (ticks.map { labelWidth($0.label) }.max() ?? 0)) + 6
        }
        area = area.inset(top: 0, left: 0, bottom: 0, right: yLabelWidth)
        var xAxis = XAxisLabels(ticks: [], every: 1, height: 0, maxWidth: 0, lineLimit: 1)
        if !xHidden {
            xScale.start = area.minX
            xScale.end = area.maxX
            xAxis = xAxisLayout(xScale.makeTicks(length: area.width, spacing: 90, axis: chart.chartXAxis))
        }
        plot = area.inset(top: 0, left: 0, bottom: xAxis.height, right: 0)
        xScale.start = plot.minX
        xScale.end = plot.maxX
        if yScale.kind == .band {
            yScale.start = plot.minY
            yScale.end = plot.maxY
        } else {
            yScale.start = plot.maxY
            yScale.end = plot.minY
        }
        if !yHidden { yLabels = yScale.makeTicks(length: plot.height, spacing: 45, axis: chart.chartYAxis) }
        if !xHidden { xAxis.ticks = xScale.makeTicks(length: plot.width, spacing: 90, axis: chart.chartXAxis) }

        elements += gridLines(xTicks: xHidden ? [] : xAxis.ticks, yTicks: yLabels)
        let drawn = drawMarks()
        // Marks are not clipped at the plot, as in Swift Charts: a curve that overshoots its points
        // and a symbol on the plot's edge stay whole. Only the widget's card bounds them.
        elements += drawn.flatMap { $0.elements }
        if !yHidden { elements += yAxisLabels(yLabels, width: yLabelWidth) }
        if !xHidden { elements += xAxisLabels(xAxis) }
        elements += legendElements(legend)
        elements += annotations(drawn)
        elements += interactions(drawn)
        return elements
    }

    private func emptyMessage() -> [Element] {
        let message = TextBlock(
            plain: "No data to plot", style: TextStyle(size: 15, color: Theme.secondary, alignment: .center))
        let size = message.size(for: Proposal(width: frame.width, height: nil), in: context)
        return [.shape(Shape(path: .roundedRect(frame, radius: 8), fill: Theme.tertiaryFill))]
            + message.draw(
                in: Rect(x: frame.minX, y: frame.midY - size.height / 2, width: frame.width, height: size.height),
                context: context)
    }

    // MARK: Grid and axes

    private func gridLines(xTicks: [Tick], yTicks: [Tick]) -> [Element] {
        var path = Path()
        for tick in yTicks where yScale.kind != .band {
            path.move(to: Point(plot.minX, tick.position))
            path.line(to: Point(plot.maxX, tick.position))
        }
        for tick in xTicks where xScale.kind != .band {
            path.move(to: Point(tick.position, plot.minY))
            path.line(to: Point(tick.position, plot.maxY))
        }
        var elements: [Element] = []
        if !path.isEmpty {
            elements.append(.shape(Shape(path: path, stroke: Stroke(color: Theme.gridLine, width: 0.5))))
        }
        return elements
    }

    private func yAxisLabels(_ ticks: [Tick], width: Double) -> [Element] {
        let step = ticks.count > 1 ? abs(ticks[1].position - ticks[0].position) : plot.height
        let every = step < 13 ? Int(saturating: (13 / max(step, 0.1)).rounded(.up)) : 1
        return ticks.enumerated().compactMap { index, tick -> [Element]? in
            guard index % every == 0 else { return nil }
            let label = TextBlock(plain: tick.label, style: Self.labelStyle)
            let box = Rect(x: plot.maxX + 6, y: tick.position - 7, width: max(1, width - 6), height: 14)
            return label.draw(in: box, context: context)
        }.flatMap { $0 }
    }

    /// The x labels' arrangement, never rotated (Swift Charts does not rotate them): each label
    /// centred on its tick, category names wrapped at spaces to their band and ended with "…" past
    /// ``maxCategoryLines`` lines, and only every n-th label where a band is narrower than the
    /// longest word.
    struct XAxisLabels {
        var ticks: [Tick]
        var every: Int
        var height: Double
        /// The width each label may take.
        var maxWidth: Double
        var lineLimit: Int
    }

    /// Lines a category name may wrap to below its bar before it ends in "…".
    static let maxCategoryLines = 3
    /// Narrower bands share their labels: each label then spans this much at least.
    static let minCategoryWidth = 28.0

    private func xAxisLayout(_ ticks: [Tick]) -> XAxisLabels {
        let widths = ticks.map { labelWidth($0.label) }
        let widest = widths.max() ?? 0
        let spacing = ticks.count > 1 ? abs(ticks[1].position - ticks[0].position) : plot.width
        if (widest + 6 <= spacing || ticks.count <= 1) && singleLinesFit(ticks, every: 1) {
            return XAxisLabels(ticks: ticks, every: 1, height: 18, maxWidth: max(widest, spacing), lineLimit: 1)
        }
        if xScale.kind != .band || widest + 6 <= spacing {
            // Continuous ticks: keep them on one line and show every n-th.
            var every = max(1, Int(saturating: ((widest + 8) / max(spacing, 0.1)).rounded(.up)))
            while every < ticks.count && !singleLinesFit(ticks, every: every) { every += 1 }
            return XAxisLabels(ticks: ticks, every: every, height: 18, maxWidth: widest, lineLimit: 1)
        }
        // Show every n-th name, n as small as lets the longest word fit whole (words are not split).
        let longestWord = ticks.flatMap { $0.label.split(separator: " ") }.map { labelWidth(String($0)) }.max() ?? 0
        let needed = max(Self.minCategoryWidth, longestWord + 4)
        let every = min(
            max(1, ticks.count), max(1, Int(saturating: ((needed + 4) / max(spacing, 0.1)).rounded(.up))))
        let width = max(1, spacing * Double(every) - 4)
        let style = categoryStyle(lineLimit: Self.maxCategoryLines)
        let lines = ticks.enumerated().filter { $0.offset % every == 0 }.map {
            TextBlock(plain: $0.element.label, style: style).layout(width: width, context).lines.count
        }
        let lineCount = max(1, lines.max() ?? 1)
        let lineHeight = TextBlock(plain: "", style: style).lineHeight(context)
        return XAxisLabels(
            ticks: ticks, every: every, height: Double(lineCount) * lineHeight + 6, maxWidth: width,
            lineLimit: lineCount)
    }

    /// Where a one-line label is drawn: centred on its tick and kept inside the widget's margins, or
    /// for dates starting at its tick; `nil` when a date label does not fit before the y axis.
    private func singleLineExtent(_ tick: Tick) -> (minX: Double, maxX: Double)? {
        let width = labelWidth(tick.label)
        if xScale.kind == .time {
            // Swift Charts starts a date label just after its grid line; one that would run past
            // the plot (into the y axis's numbers) or the widget's edge is left out, not pushed back.
            let x = tick.position + 2
            let limit = chart.chartYAxis?.hidden == true ? margins.maxX : max(xScale.start, xScale.end) + 2
            return x + width <= limit ? (x, x + width) : nil
        }
        let x = min(max(tick.position - width / 2, margins.minX), margins.maxX - width)
        return (x, x + width)
    }

    /// Whether every `every`-th label, drawn on one line, keeps 4 pt from the next, edge ones included.
    private func singleLinesFit(_ ticks: [Tick], every: Int) -> Bool {
        let shown = stride(from: 0, to: ticks.count, by: every).compactMap { singleLineExtent(ticks[$0]) }
        return zip(shown, shown.dropFirst()).allSatisfy { $0.maxX + 4 <= $1.minX }
    }

    private func categoryStyle(lineLimit: Int) -> TextStyle {
        var style = Self.labelStyle
        style.alignment = .center
        style.lineLimit = lineLimit
        return style
    }

    private func xAxisLabels(_ layout: XAxisLabels) -> [Element] {
        var elements: [Element] = []
        for (index, tick) in layout.ticks.enumerated() where index % layout.every == 0 {
            if layout.lineLimit > 1 {
                let label = TextBlock(plain: tick.label, style: categoryStyle(lineLimit: layout.lineLimit))
                // Centred on its tick; an edge label narrows to stay inside the margins rather than
                // shift into its neighbour's room.
                let minX = max(tick.position - layout.maxWidth / 2, margins.minX)
                let maxX = min(tick.position + layout.maxWidth / 2, margins.maxX)
                let box = Rect(x: minX, y: plot.maxY + 4, width: max(1, maxX - minX), height: layout.height)
                elements.append(.group(Group(label.draw(in: box, context: context), label: tick.label)))
                continue
            }
            // Every label is centred on its tick, the edge ones too (they may reach into the
            // widget's margins), as Swift Charts aligns them.
            let label = TextBlock(plain: tick.label, style: Self.labelStyle)
            guard let extent = singleLineExtent(tick) else { continue }
            elements += label.draw(
                in: Rect(x: extent.minX, y: plot.maxY + 4, width: extent.maxX - extent.minX + 0.5, height: 14),
                context: context)
        }
        return elements
    }

    // MARK: Legend

    struct LegendLayout {
        var rows: [[(name: String, color: DrawingColor, x: Double)]]
        var height: Double
    }

    private func legendLayout() -> LegendLayout {
        guard chart.chartLegend?.hidden != true, !prepared.series.isEmpty else {
            return LegendLayout(rows: [], height: 0)
        }
        var rows: [[(String, DrawingColor, Double)]] = [[]]
        var x = 0.0
        for (index, name) in prepared.series.enumerated() {
            let width = 12 + min(labelWidth(name), frame.width * 0.5) + 14
            if x + width > frame.width && !rows[rows.count - 1].isEmpty {
                rows.append([])
                x = 0
            }
            rows[rows.count - 1].append((name, Theme.palette[index % Theme.palette.count], x))
            x += width
        }
        let visible = Array(rows.prefix(6))
        return LegendLayout(rows: visible, height: Double(visible.count) * 16 + 8)
    }

    private func legendElements(_ legend: LegendLayout) -> [Element] {
        var elements: [Element] = []
        for (rowIndex, row) in legend.rows.enumerated() {
            let y = frame.maxY - legend.height + 8 + Double(rowIndex) * 16
            for item in row {
                elements.append(
                    .shape(
                        Shape(path: .circle(center: Point(frame.minX + item.x + 4, y + 7), radius: 4), fill: item.color)
                    ))
                let label = TextBlock(plain: item.name, style: Self.labelStyle)
                elements += label.draw(
                    in: Rect(
                        x: frame.minX + item.x + 12, y: y, width: min(labelWidth(item.name), frame.width * 0.5) + 1,
                        height: 14), context: context)
            }
        }
        return elements
    }
}
