/// Column-oriented inline data, columns in the order the document gives them.
///
/// ```json
/// {"Year": ["2019", "2020"], "Value": [1.5, 2]}
/// ```
/// A column written as a single value (`"Born": "1860-04-13"`) is a one-row column, as in iARVis;
/// it is written back as an array. The row count is the length of the longest column.
public struct DataTable: Sendable, Hashable {
    /// One named column.
    public struct Column: Sendable, Hashable {
        /// The column's name, its key in the data object.
        public var name: String
        /// The cells from the first row down; a column shorter than the table has no cells for the last rows.
        public var values: [DataValue]

        /// Creates a column.
        public init(name: String, values: [DataValue]) {
            self.name = name
            self.values = values
        }
    }

    /// The columns in document order.
    public var columns: [Column]

    /// Creates a table from columns.
    public init(columns: [Column]) { self.columns = columns }

    /// Creates a table from name–values pairs, in order.
    public init(_ columns: KeyValuePairs<String, [DataValue]>) {
        self.columns = columns.map { Column(name: $0.key, values: $0.value) }
    }

    /// The number of rows: the length of the longest column.
    public var rowCount: Int { columns.map(\.values.count).max() ?? 0 }

    /// The column named `name`.
    public subscript(name: String) -> Column? { columns.first { $0.name == name } }

    /// The column names in order.
    public var columnNames: [String] { columns.map(\.name) }
}

extension DataTable: NodeCodable {
    package init?(from node: Node, in context: DecodingContext) {
        guard let members = node.members else {
            context.typeMismatch(node, expected: "an object of columns {\"name\": [values]}")
            return nil
        }
        var columns: [Column] = []
        columns.reserveCapacity(members.count)
        var valid = true
        for member in members {
            guard let values = context.at(member.key, { Self.readColumn(member.value, context) }) else {
                valid = false
                continue
            }
            columns.append(Column(name: member.key, values: values))
        }
        guard valid else { return nil }
        self.init(columns: columns)
    }

    private static func readColumn(_ node: Node, _ context: DecodingContext) -> [DataValue]? {
        guard let elements = node.elements else {
            guard let value = DataValue(node) else {
                context.typeMismatch(node, expected: "a column: an array of values, or one value")
                return nil
            }
            return [value]
        }
        var values: [DataValue] = []
        values.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard let value = DataValue(element) else {
                context.at(index: index) {
                    context.typeMismatch(element, expected: "a string, number, boolean or null")
                }
                return nil
            }
            values.append(value)
        }
        return values
    }

    package var node: Node {
        Node(.object(columns.map { Node.Member(key: $0.name, value: $0.values.node) }))
    }

    package static var schema: Schema {
        .map(.oneOf([.array(.scalar), .scalar]))
            .described("Columns by name: an array of values each, or a single value for a one-row column.")
    }
}
