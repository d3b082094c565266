extension Component {
    /// A table of text cells (Markdown), from column-oriented data.
    public struct Table: Sendable, Hashable {
        /// The table's data and orientation.
        public var configuration: TableConfiguration
        /// Modifiers applied in order after the table is built.
        public var modifiers: [Modifier]?

        /// Creates a table component.
        public init(configuration: TableConfiguration, modifiers: [Modifier]? = nil) {
            self.configuration = configuration
            self.modifiers = modifiers
        }
    }

    /// A scatter-plot matrix of several numeric fields.
    public struct Splom: Sendable, Hashable {
        /// Column-oriented inline data, as in a chart's data source.
        public var data: DataTable
        /// The columns plotted against each other: one row and one column of cells each.
        public var fields: [String]
        /// Axis labels, one per field; iARVis requires the key and ignores it when the count differs.
        public var labels: [String]?
        /// Mark styling shared by every cell (symbol, size, colours).
        public var config: MarkConfiguration?

        /// Creates a scatter-plot matrix.
        public init(data: DataTable, fields: [String], labels: [String]? = nil, config: MarkConfiguration? = nil) {
            self.data = data
            self.fields = fields
            self.labels = labels
            self.config = config
        }
    }
}

/// The data and orientation of a table.
public struct TableConfiguration: Sendable, Hashable {
    /// How records are laid out.
    public enum Orientation: String, Sendable, Hashable, CaseIterable {
        /// One row per record, titles as column headers.
        case vertical
        /// One column per record, titles as row headers.
        case horizontal
    }

    /// The cells by column, the column order and the record count.
    public var tableData: TableData
    /// Written `{"vertical": {}}` (the default) or `{"horizontal": {}}`; see ``Orientation``.
    public var orientation: Orientation?

    /// Creates a table configuration.
    public init(tableData: TableData, orientation: Orientation? = nil) {
        self.tableData = tableData
        self.orientation = orientation
    }
}

/// A table's cells by column, the column order, and the record count.
public struct TableData: Sendable, Hashable {
    /// The cells by column; each cell's text is rendered as Markdown.
    public var data: DataTable
    /// The column order; iARVis requires it, ARVis defaults to the data's order.
    public var titles: [String]?
    /// The number of records; iARVis requires it, ARVis defaults to the longest column.
    public var length: Int?

    /// Creates table data.
    public init(data: DataTable, titles: [String]? = nil, length: Int? = nil) {
        self.data = data
        self.titles = titles
        self.length = length
    }
}

extension Component.Table: NodeCodable {
    static let shape = ObjectShape(
        "A table of Markdown cells.",
        [
            .required("configuration", .ref(TableConfiguration.self), "The data and orientation."),
            Schema.modifiersProperty,
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let configuration = object.required("configuration", as: TableConfiguration.self)
        let modifiers = object.optional("modifiers", as: [Modifier].self)
        guard let configuration else { return nil }
        self.init(configuration: configuration, modifiers: modifiers)
    }

    package var node: Node { .object([("configuration", configuration.node), ("modifiers", modifiers?.node)]) }
}

extension TableConfiguration: NodeCodable {
    static let shape = ObjectShape(
        "A table's data and orientation.",
        [
            .required("tableData", .ref(TableData.self), "The cells."),
            .optional(
                "orientation",
                SingleKeyObject.schema([("vertical", .object(.empty)), ("horizontal", .object(.empty))]),
                "{\"vertical\": {}} (records as rows, the default) or {\"horizontal\": {}}."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let data = object.required("tableData", as: TableData.self)
        var orientation: Orientation?
        if let value = object.value("orientation") {
            context.at("orientation") {
                let member = SingleKeyObject.read(
                    value, context, cases: Orientation.allCases.map(\.rawValue), what: "orientation")
                if let member, ObjectReader(member.value, context, shape: .empty, expected: "an empty object {}") != nil
                {
                    orientation = Orientation(rawValue: member.key)
                }
            }
        }
        guard let data else { return nil }
        self.init(tableData: data, orientation: orientation)
    }

    package var node: Node {
        .object([
            ("tableData", tableData.node), ("orientation", orientation.map { .object([($0.rawValue, .object([]))]) }),
        ])
    }
}

extension TableData: NodeCodable {
    static let shape = ObjectShape(
        "A table's cells.",
        [
            .required("data", .ref(DataTable.self), "Cells by column."),
            .optional("titles", .array(.string()), "Column order (default: the data's order; iARVis requires it)."),
            .optional(
                "length", .integer(minimum: 0), "Record count (default: the longest column; iARVis requires it)."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let data = object.required("data", as: DataTable.self)
        let titles = object.optional("titles", as: [String].self)
        let length = object.optional("length", as: Int.self)
        guard let data else { return nil }
        if let titles {
            ColumnCheck.names(
                titles, exist: data, what: "a table title", at: object.value("titles")!, key: "titles", context)
        }
        if let length, length < 0 {
            context.at("length") {
                context.error(
                    .invalidValue, at: object.offset(of: "length"),
                    "a table length must not be negative, found \(length)")
            }
        } else if let length, length != data.rowCount {
            context.at("length") {
                context.warning(
                    .invalidValue, at: object.offset(of: "length"),
                    "length is \(length) but the longest column has \(data.rowCount) value\(data.rowCount == 1 ? "" : "s")"
                )
            }
        }
        if let node = object.value("data") { Self.checkLinks(data, node: node, context) }
        self.init(data: data, titles: titles, length: length)
    }

    /// Warns about Markdown links in the cells that will be drawn as text.
    private static func checkLinks(_ data: DataTable, node: Node, _ context: DecodingContext) {
        for (column, member) in zip(data.columns, node.members ?? []) {
            let elements = member.value.elements ?? [member.value]
            for (row, (value, element)) in zip(column.values, elements).enumerated() {
                guard case .string(let text) = value else { continue }
                context.at("data") {
                    context.at(column.name) {
                        context.at(index: row) {
                            URLCheck.checkMarkdownLinks(text, at: element.offset, context)
                        }
                    }
                }
            }
        }
    }

    package var node: Node { .object([("data", data.node), ("titles", titles?.node), ("length", length?.node)]) }
}

extension Component.Splom: NodeCodable {
    static let shape = ObjectShape(
        "A scatter-plot matrix.",
        [
            .required("data", .ref(DataTable.self), "Column-oriented data."),
            .required("fields", .array(.string(), minItems: 1), "The columns to plot against each other."),
            .optional(
                "labels", .array(.string()),
                "Axis labels, one per field (default the field names; iARVis requires the key)."),
            .optional("config", .ref(MarkConfiguration.self), "Styling of the points (symbol, size, colours)."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let data = object.required("data", as: DataTable.self)
        let fields = object.required("fields", as: [String].self)
        let labels = object.optional("labels", as: [String].self)
        let config = object.optional("config", as: MarkConfiguration.self)
        guard let data, let fields else { return nil }
        ColumnCheck.names(fields, exist: data, what: "a field", at: object.value("fields")!, key: "fields", context)
        if let labels, labels.count != fields.count {
            context.at("labels") {
                context.warning(
                    .invalidValue, at: object.offset(of: "labels"),
                    "\(labels.count) label\(labels.count == 1 ? "" : "s") for \(fields.count) field\(fields.count == 1 ? "" : "s"); iARVis ignores them",
                    hint: "give one label per field")
            }
        }
        if let config {
            context.at("config") { MarkCheck.styleFields(config, data: data, node: object.value("config")!, context) }
        }
        self.init(data: data, fields: fields, labels: labels, config: config)
    }

    package var node: Node {
        .object([("data", data.node), ("fields", fields.node), ("labels", labels?.node), ("config", config?.node)])
    }
}

/// Checks that names refer to columns of a data table.
package enum ColumnCheck {
    /// Reports each of `names` that is not a column of `data`, at its element in the array `node`.
    package static func names(
        _ names: [String], exist data: DataTable, what: String, at node: Node, key: String, _ context: DecodingContext
    ) {
        let elements = node.elements ?? []
        context.at(key) {
            for (index, name) in names.enumerated() where data[name] == nil {
                let offset = index < elements.count ? elements[index].offset : node.offset
                context.at(index: index) { unknown(name, what: what, in: data, at: offset, context) }
            }
        }
    }

    /// Reports that `name` is not a column of `data`, with a did-you-mean hint.
    package static func unknown(
        _ name: String, what: String, in data: DataTable, at offset: Int, _ context: DecodingContext
    ) {
        context.error(
            .unknownReference, at: offset, "\(what) \"\(name)\" is not a column of the data",
            hint: Suggestion.hint(for: name, among: data.columnNames, listing: true))
    }
}
