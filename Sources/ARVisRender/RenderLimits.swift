import ARVisSpec
import ARVisSupport

/// How much one widget may draw: the bounds that keep rendering time and memory in proportion to
/// what a picture can show, whatever its data.
///
/// Line, area and point charts are exempt from the mark limit: lines and areas are drawn from at most
/// four points per pixel column (first, last, lowest and highest), points from one per quarter-point
/// cell and colour, so a million rows cost what a few thousand do. They have a row limit instead.
///
/// ```swift
/// var options = RenderOptions()
/// options.limits.maximumTableCells = 500_000
/// ```
public struct RenderLimits: Sendable, Hashable {
    /// The most table cells drawn in one widget.
    public var maximumTableCells: Int
    /// The most marks (bars, points, rules, rectangles, scatter-plot dots) in one widget.
    public var maximumMarks: Int
    /// The most fields of a scatter-plot matrix (each pair is a panel).
    public var maximumSplomFields: Int
    /// The most data rows of a line, area or point chart.
    public var maximumSeriesRows: Int

    /// Creates limits; the defaults are 100 000 cells, 200 000 marks, 30 matrix fields and
    /// 1 500 000 rows per line or area chart (which keeps a render under 1 GB of memory).
    public init(
        maximumTableCells: Int = 100_000, maximumMarks: Int = 200_000, maximumSplomFields: Int = 30,
        maximumSeriesRows: Int = 1_500_000
    ) {
        self.maximumTableCells = maximumTableCells
        self.maximumMarks = maximumMarks
        self.maximumSplomFields = maximumSplomFields
        self.maximumSeriesRows = maximumSeriesRows
    }

    /// Checks that `component` fits the limits.
    /// - Throws: ``RenderError`` naming the first limit exceeded, what the widget needs, and the
    ///   option that raises it.
    func check(_ component: Component, widget: String) throws(RenderError) {
        var usage = Usage()
        var pending = [component]
        while let next = pending.popLast() {
            usage.add(next)
            pending += next.children
            if case .chart(let chart) = next {
                for annotation in chart.annotations ?? [] { pending.append(annotation.content) }
            }
        }
        func refuse(_ what: String, _ count: Int, _ limit: Int, _ option: String) -> RenderError {
            RenderError(
                .limitExceeded,
                "it would draw \(count.formatted) \(what), over the limit of \(limit.formatted) (raise it with \(option))",
                location: widget)
        }
        if usage.splomFields > maximumSplomFields {
            throw refuse("scatter-plot matrix fields", usage.splomFields, maximumSplomFields, "--max-splom-fields")
        }
        if usage.tableCells > maximumTableCells {
            throw refuse("table cells", usage.tableCells, maximumTableCells, "--max-cells")
        }
        if usage.marks > maximumMarks { throw refuse("marks", usage.marks, maximumMarks, "--max-marks") }
        if usage.seriesRows > maximumSeriesRows {
            throw refuse("rows of a line, area or point chart", usage.seriesRows, maximumSeriesRows, "--max-rows")
        }
    }

    /// What a widget would draw, counted from its specification before any layout.
    private struct Usage {
        var tableCells = 0, marks = 0, splomFields = 0, seriesRows = 0

        mutating func add(_ component: Component) {
            switch component {
            case .table(let table):
                let data = table.configuration.tableData
                let rows = max(0, min(data.length ?? data.data.rowCount, data.data.rowCount))
                tableCells = tableCells &+ (rows + 1) &* (data.titles?.count ?? data.data.columns.count)
            case .splom(let splom):
                splomFields = max(splomFields, splom.fields.count)
                marks = marks &+ splom.data.rowCount &* splom.fields.count &* splom.fields.count
            case .chart(let chart):
                for mark in chart.components {
                    let rows = chart.dataSource(for: mark)?.data.rowCount ?? 0
                    // Lines and areas (M4) and points (binned) draw at most a few marks per cell of the plot.
                    if [.line, .area, .point].contains(mark.type) {
                        seriesRows = max(seriesRows, rows)
                    } else {
                        marks = marks &+ rows
                    }
                }
            default: break
            }
        }
    }
}

extension Int {
    /// `1 000 000`: thousands separated by thin spaces, as messages print counts.
    fileprivate var formatted: String {
        let digits = String(magnitude)
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (self < 0 ? "-" : "") + groups.joined(separator: " ")
    }
}
