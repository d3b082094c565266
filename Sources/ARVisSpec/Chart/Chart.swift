/// A chart: inline data sources, marks that plot them, and chart-level scales, axes, legend and style.
///
/// ```json
/// {"dataSources": [{"label": "default", "data": {"Model": ["M1", "M2"], "Score": [1.0, 1.4]}}],
///  "components": [{"type": "BarMark", "config": {"x": {"field": "Model"}, "y": {"field": "Score"}}}]}
/// ```
public struct Chart: Sendable, Hashable {
    /// The inline data tables, each named by its `label`; components pick one with `dataKey`.
    public var dataSources: [DataSource]
    /// The marks, drawn in order.
    public var components: [ChartComponent]
    /// The x scale: whether it includes zero, or a fixed domain; fitted to the data when absent.
    public var chartXScale: ScaleConfiguration?
    /// The y scale: whether it includes zero, or a fixed domain; fitted to the data when absent.
    public var chartYScale: ScaleConfiguration?
    /// The x axis: hidden, or with ticks at a date stride and a year label format.
    public var chartXAxis: AxisConfiguration?
    /// The y axis: hidden, or with ticks at a date stride and a year label format.
    public var chartYAxis: AxisConfiguration?
    /// The legend of the series coloured by field or value; shown unless hidden.
    public var chartLegend: LegendConfiguration?
    /// The chart's fixed width and height and its padding.
    public var styleConfiguration: ChartStyle?
    /// Annotations placed over the whole chart.
    public var annotations: [ChartAnnotation]?

    /// Creates a chart.
    public init(dataSources: [DataSource], components: [ChartComponent]) {
        self.dataSources = dataSources
        self.components = components
    }

    /// The data source a component plots.
    public func dataSource(for component: ChartComponent) -> DataSource? {
        dataSources.first { $0.label == component.config.resolvedDataKey }
    }
}

/// A labelled table of inline data.
public struct DataSource: Sendable, Hashable {
    /// The name components give as their `dataKey`, unique in the chart; usually `default`.
    public var label: String
    /// The columns, inline; a column written as a single value has one row.
    public var data: DataTable
    /// The column order; without it the data's own order is used.
    public var titles: [String]?
    /// A project dataset whose rows are appended to `data` live (ARVis; `data` declares the columns
    /// and holds the rows shown before any arrive).
    public var dataset: DatasetLink?

    /// Creates a data source.
    public init(label: String = "default", data: DataTable, titles: [String]? = nil, dataset: DatasetLink? = nil) {
        self.label = label
        self.data = data
        self.titles = titles
        self.dataset = dataset
    }
}

/// A data source's live rows: a dataset of the spec's project on an ARVis server, and how many of its
/// rows a device keeps.
///
/// ```json
/// "dataset": {"name": "hall-sensor", "rows": 120, "seconds": 600}
/// ```
public struct DatasetLink: Sendable, Hashable {
    /// The most rows a device keeps when the link names no window.
    public static let defaultRows = 1_000
    /// The most rows a window may keep (what the server keeps of a dataset).
    public static let largestRows = 100_000

    /// The dataset's name (an ``ItemName``).
    public var name: String
    /// Keep at most this many of the newest rows.
    public var rows: Int?
    /// Keep only rows at most this many seconds old.
    public var seconds: Double?

    /// Creates a link.
    public init(name: String, rows: Int? = nil, seconds: Double? = nil) {
        self.name = name
        self.rows = rows
        self.seconds = seconds
    }

    /// The rows kept: ``rows``, else ``defaultRows`` (a time window alone still keeps at most that many).
    public var rowLimit: Int { rows ?? Self.defaultRows }
}

extension DatasetLink: NodeCodable {
    static let shape = ObjectShape(
        "A project dataset followed live, and the window of rows a device keeps.",
        [
            .required(
                "name", .string(pattern: "^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$"),
                "The dataset's name in the spec's project."),
            .optional(
                "rows", .integer(minimum: 1, maximum: largestRows),
                "Keep at most this many of the newest rows (default 1000)."),
            .optional(
                "seconds", .number(exclusiveMinimum: 0, maximum: 31_536_000),
                "Keep only rows at most this many seconds old."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        guard let name = object.required("name", as: String.self) else { return nil }
        guard ItemName.isValid(name) else {
            context.at("name") {
                context.error(
                    .invalidValue, at: object.offset(of: "name"), "\"\(name)\" cannot name a dataset",
                    hint: "use 1 to 100 letters, digits, '_' or '-', starting with a letter or digit")
            }
            return nil
        }
        self.init(name: name)
        if let rows = object.optional("rows", as: Int.self) {
            guard (1...Self.largestRows).contains(rows) else {
                context.at("rows") {
                    context.error(
                        .invalidValue, at: object.offset(of: "rows"),
                        "a window keeps 1 to \(Self.largestRows) rows, not \(rows)")
                }
                return nil
            }
            self.rows = rows
        }
        seconds = object.positive("seconds", "a window's seconds", maximum: 31_536_000, context)
    }

    package var node: Node { .object([("name", .string(name)), ("rows", rows?.node), ("seconds", seconds?.node)]) }
}

/// One mark of a chart with its configuration and interactions.
public struct ChartComponent: Sendable, Hashable {
    /// The mark: `BarMark`, `LineMark`, `PointMark`, `AreaMark`, `RuleMark` or `RectangleMark`.
    public var type: MarkType
    /// The data source, channels and styling, in one flat object.
    public var config: MarkConfiguration
    /// Hover tooltips and Click actions; iARVis keeps only the last component's.
    public var interactions: [Interaction]?

    /// Creates a chart component.
    public init(type: MarkType, config: MarkConfiguration, interactions: [Interaction]? = nil) {
        self.type = type
        self.config = config
        self.interactions = interactions
    }
}

extension Chart: NodeCodable {
    static let shape = ObjectShape(
        "A chart.",
        retiredKeys: [
            "chartConfig": "the 2022 chart grammar; write dataSources and components at the top level",
            "data": "write the data as dataSources: [{\"label\": \"default\", \"data\": {…}}]",
            "xScale": "write chartXScale", "styleConfig": "write styleConfiguration",
        ],
        [
            .required("dataSources", .array(.ref(DataSource.self)), "The data, by label."),
            .required("components", .array(.ref(ChartComponent.self)), "The marks, drawn in order."),
            .optional("chartXScale", .ref(ScaleConfiguration.self), "The x scale."),
            .optional("chartYScale", .ref(ScaleConfiguration.self), "The y scale."),
            .optional("chartXAxis", .ref(AxisConfiguration.self), "The x axis."),
            .optional("chartYAxis", .ref(AxisConfiguration.self), "The y axis."),
            .optional("chartLegend", .ref(LegendConfiguration.self), "The legend."),
            .optional("styleConfiguration", .ref(ChartStyle.self), "The chart's size and padding."),
            .optional("annotations", .array(.ref(ChartAnnotation.self)), "Annotations over the whole chart."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape, expected: "a chart object") else {
            return nil
        }
        let errorsBefore = context.errorCount
        let sources = object.required("dataSources", as: [DataSource].self)
        let sourcesComplete = sources != nil && context.errorCount == errorsBefore
        let components = object.required("components", as: [ChartComponent].self)
        guard let sources, let components else { return nil }
        self.init(dataSources: sources, components: components)
        chartXScale = object.optional("chartXScale")
        chartYScale = object.optional("chartYScale")
        chartXAxis = object.optional("chartXAxis")
        chartYAxis = object.optional("chartYAxis")
        chartLegend = object.optional("chartLegend")
        styleConfiguration = object.optional("styleConfiguration")
        annotations = object.optional("annotations")
        context.at("dataSources") { checkLabels(object.value("dataSources")!, context) }
        if sourcesComplete, let componentNodes = object.value("components")?.elements,
            componentNodes.count == components.count
        {
            context.at("components") { checkComponents(componentNodes, context) }
        }
    }

    private func checkLabels(_ node: Node, _ context: DecodingContext) {
        var seen: Set<String> = []
        for (index, source) in dataSources.enumerated() where !seen.insert(source.label).inserted {
            context.at(index: index) {
                context.error(
                    .invalidValue, at: node.elements?[index].offset ?? node.offset,
                    "two data sources are labelled \"\(source.label)\"",
                    hint: "give each data source its own label")
            }
        }
    }

    private func checkComponents(_ nodes: [Node], _ context: DecodingContext) {
        let labels = dataSources.map(\.label)
        for (index, component) in components.enumerated() {
            context.at(index: index) {
                let configNode = nodes[index]["config"] ?? nodes[index]
                guard let source = dataSource(for: component) else {
                    context.at("config") {
                        context.at("dataKey") {
                            context.error(
                                .unknownReference, at: configNode["dataKey"]?.offset ?? configNode.offset,
                                "dataKey \"\(component.config.resolvedDataKey)\" names no data source",
                                hint: Suggestion.hint(
                                    for: component.config.resolvedDataKey, among: labels, listing: true))
                        }
                    }
                    return
                }
                context.at("config") { MarkCheck.check(component, data: source.data, config: configNode, context) }
                MarkCheck.tooltipFields(component, data: source.data, node: nodes[index], context)
                if component.interactions != nil, index != components.count - 1 {
                    context.warning(
                        .compatibility, at: nodes[index]["interactions"]?.offset ?? nodes[index].offset,
                        "iARVis keeps only the last component's interactions; ARVis keeps these too")
                }
            }
        }
    }

    package var node: Node {
        .object([
            ("dataSources", dataSources.node), ("components", components.node), ("chartXScale", chartXScale?.node),
            ("chartYScale", chartYScale?.node), ("chartXAxis", chartXAxis?.node), ("chartYAxis", chartYAxis?.node),
            ("chartLegend", chartLegend?.node), ("styleConfiguration", styleConfiguration?.node),
            ("annotations", annotations?.node),
        ])
    }
}

extension DataSource: NodeCodable {
    static let shape = ObjectShape(
        "A labelled table of inline data.",
        [
            .required("label", .string(), "The name components use as their dataKey."),
            .required("data", .ref(DataTable.self), "Columns by name."),
            .optional("titles", .array(.string()), "The column order."),
            .optional(
                "dataset", .ref(DatasetLink.self),
                "ARVis: a project dataset whose rows are appended live; data declares its columns."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let label = object.required("label", as: String.self)
        let data = object.required("data", as: DataTable.self)
        let titles = object.optional("titles", as: [String].self)
        let dataset = object.optional("dataset", as: DatasetLink.self)
        guard let label, let data else { return nil }
        if let titles {
            ColumnCheck.names(titles, exist: data, what: "a title", at: object.value("titles")!, key: "titles", context)
        }
        let lengths = Set(data.columns.map(\.values.count))
        if lengths.count > 1 {
            let counts = data.columns.map { "\($0.name): \($0.values.count)" }.joined(separator: ", ")
            context.at("data") {
                context.warning(
                    .invalidValue, at: object.offset(of: "data"),
                    "columns have different lengths (\(counts)); short columns leave cells empty")
            }
        }
        self.init(label: label, data: data, titles: titles, dataset: dataset)
    }

    package var node: Node {
        .object([("label", .string(label)), ("data", data.node), ("titles", titles?.node), ("dataset", dataset?.node)])
    }
}

extension ChartComponent: NodeCodable {
    static let shape = ObjectShape(
        "A mark.",
        [
            .required("type", MarkType.schema, "The mark."),
            .required("config", .ref(MarkConfiguration.self), "Data, channels and styling."),
            .optional("interactions", .array(.ref(Interaction.self)), "Hover tooltips and Click actions."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let type = object.required("type", as: MarkType.self)
        let config = object.required("config", as: MarkConfiguration.self)
        let interactions = object.optional("interactions", as: [Interaction].self)
        guard let type, let config else { return nil }
        self.init(type: type, config: config, interactions: interactions)
    }

    package var node: Node {
        .object([("type", type.node), ("config", config.node), ("interactions", interactions?.node)])
    }
}
