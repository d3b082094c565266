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
        var xAxis = XAxisLabels(ticks: [], rotated: false, every: 1, height: 0, maxWidth: 0)
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
        // stays whole instead of showing a gap. Only the chart's own frame bounds them.
        elements.append(.group(Group(drawn.flatMap { $0.elements }, clip: .rect(frame))))
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

    /// The x labels' arrangement: straight, or rotated 45° (and thinned) when they would overlap.
    struct XAxisLabels {
        var ticks: [Tick]
        var rotated: Bool
        var every: Int
        var height: Double
        var maxWidth: Double
    }

    private func xAxisLayout(_ ticks: [Tick]) -> XAxisLabels {
        let widths = ticks.map { labelWidth($0.label) }
        let widest = widths.max() ?? 0
        let spacing = ticks.count > 1 ? abs(ticks[1].position - ticks[0].position) : plot.width
        if widest + 6 <= spacing || ticks.count <= 1 {
            return XAxisLabels(ticks: ticks, rotated: false, every: 1, height: 18, maxWidth: max(widest, spacing))
        }
        if xScale.kind != .band || widest <= 36 {
            // Continuous ticks and short categories: keep them straight and show every n-th.
            let every = Int(saturating: ((widest + 8) / max(spacing, 0.1)).rounded(.up))
            return XAxisLabels(ticks: ticks, rotated: false, every: every, height: 18, maxWidth: widest)
        }
        let maxWidth = min(widest, 170, frame.height * 0.45)
        let every = max(1, Int(saturating: (14 / max(spacing, 0.1)).rounded(.up)))
        return XAxisLabels(
            ticks: ticks, rotated: true, every: every, height: maxWidth * 0.7071 + 16, maxWidth: maxWidth)
    }

    private func xAxisLabels(_ layout: XAxisLabels) -> [Element] {
        var elements: [Element] = []
        for (index, tick) in layout.ticks.enumerated() where index % layout.every == 0 {
            // Rotated category names too long for their room lose their middle, not their end, so
            // names that share a beginning ("MacBook Pro 14\" M1 Pro", "… M1 Max") stay apart.
            let text = layout.rotated ? middleTruncated(tick.label, maxWidth: layout.maxWidth) : tick.label
            let label = TextBlock(plain: text, style: Self.labelStyle)
            if layout.rotated {
                let lines = label.layout(width: layout.maxWidth, context)
                let width = min(layout.maxWidth, lines.width)
                // Rotate about the label's top-right end, which sits just below the tick.
                let anchor = Point(tick.position + 4, plot.maxY + 6)
                let box = Rect(x: -width, y: 0, width: width, height: 14)
                let transform = Transform.translation(anchor.x, anchor.y).concatenating(.rotation(degrees: -45))
                elements.append(
                    .group(Group(label.draw(in: box, context: context), transform: transform, label: tick.label)))
            } else {
                // Every label is centred on its tick, the edge ones too (they may reach into the
                // widget's margins), as Swift Charts aligns them.
                let width = min(layout.maxWidth, labelWidth(tick.label))
                let x = min(max(tick.position - width / 2, margins.minX), margins.maxX - width)
                elements += label.draw(
                    in: Rect(x: x, y: plot.maxY + 4, width: width + 0.5, height: 14), context: context)
            }
        }
        return elements
    }

    /// `text`, or its beginning and end around "…", as wide as fits `maxWidth`.
    func middleTruncated(_ text: String, maxWidth: Double) -> String {
        guard labelWidth(text) > maxWidth else { return text }
        let characters = Array(text)
        var low = 0
        var high = characters.count
        while low < high {
            let kept = (low + high + 1) / 2
            let candidate = String(characters.prefix((kept + 1) / 2)) + "…" + String(characters.suffix(kept / 2))
            if labelWidth(candidate) <= maxWidth { low = kept } else { high = kept - 1 }
        }
        return String(characters.prefix((low + 1) / 2)) + "…" + String(characters.suffix(low / 2))
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
