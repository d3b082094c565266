public import ARVisSpec

/// One live row of a dataset as a chart draws it: its values by column.
public typealias LiveRow = [String: DataValue]

extension DatasetLink {
    /// The window that keeps what this one and `other` keep: the more rows, the longer time (no
    /// time limit if either has none).
    func widened(by other: DatasetLink) -> DatasetLink {
        var wider = self
        wider.rows = max(rowLimit, other.rowLimit)
        wider.seconds = seconds.flatMap { mine in other.seconds.map { max(mine, $0) } }
        return wider
    }
}

extension Component {
    /// The datasets the charts in this component follow (its children's and chart annotations'
    /// too), by name, each with the widest window any of them keeps.
    public var datasetLinks: [String: DatasetLink] {
        var links: [String: DatasetLink] = [:]
        visitCharts { chart in
            for link in chart.dataSources.compactMap(\.dataset) {
                links[link.name] = links[link.name].map { $0.widened(by: link) } ?? link
            }
        }
        return links
    }

    /// This component with the live rows of the datasets its charts follow appended to their
    /// sources' data, as a device appends them: `rows` by dataset name, oldest first; each source
    /// keeps its window's newest ``DatasetLink/rowLimit`` rows. A row's value for a column the data
    /// does not declare is left out; a declared column a row lacks is `null`.
    public func appendingLiveRows(_ rows: [String: [LiveRow]]) -> Component {
        mappingCharts { chart in
            var chart = chart
            chart.dataSources = chart.dataSources.map { source in
                guard let link = source.dataset, let live = rows[link.name], !live.isEmpty else { return source }
                var source = source
                let kept = live.suffix(link.rowLimit)
                source.data.columns = source.data.columns.map { column in
                    var column = column
                    column.values += kept.map { $0[column.name] ?? .null }
                    return column
                }
                return source
            }
            return chart
        }
    }

    private func visitCharts(_ visit: (Chart) -> Void) {
        if case .chart(let chart) = self {
            visit(chart)
            for annotation in chart.annotations ?? [] { annotation.content.visitCharts(visit) }
        }
        for child in children { child.visitCharts(visit) }
    }

    /// This component with every chart in it (and in its children and chart annotations) replaced
    /// by `transform`'s.
    private func mappingCharts(_ transform: (Chart) -> Chart) -> Component {
        func map(_ components: [Component]) -> [Component] { components.map { $0.mappingCharts(transform) } }
        switch self {
        case .chart(var chart):
            chart.annotations = chart.annotations?.map { annotation in
                var annotation = annotation
                annotation.content = annotation.content.mappingCharts(transform)
                return annotation
            }
            return .chart(transform(chart))
        case .hStack(var stack):
            stack.elements = map(stack.elements)
            return .hStack(stack)
        case .vStack(var stack):
            stack.elements = map(stack.elements)
            return .vStack(stack)
        case .grid(var grid):
            grid.rows = map(grid.rows)
            return .grid(grid)
        case .gridRow(var row):
            row.rowElements = map(row.rowElements)
            return .gridRow(row)
        case .segmentedControl(var control):
            control.items = control.items.map { item in
                var item = item
                item.component = item.component.mappingCharts(transform)
                return item
            }
            return .segmentedControl(control)
        default:
            return self
        }
    }
}
