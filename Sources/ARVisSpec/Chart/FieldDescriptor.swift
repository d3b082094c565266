/// Which column a channel (x, y, xStart …) plots, optionally read as dates with a format.
///
/// ```json
/// {"field": "Year", "type": "date", "dateFormat": "yyyy"}
/// ```
public struct FieldDescriptor: Sendable, Hashable {
    /// The name of the column the channel plots.
    public var field: String
    /// `date` forces the column to dates; iARVis ignores it without a `dateFormat`.
    public var type: FieldType?
    /// A Unicode date pattern such as `yyyy-MM-dd` (used with `type: date`).
    public var dateFormat: String?

    /// Creates a field descriptor.
    public init(field: String, type: FieldType? = nil, dateFormat: String? = nil) {
        self.field = field
        self.type = type
        self.dateFormat = dateFormat
    }
}

extension FieldDescriptor: NodeCodable {
    static let shape = ObjectShape(
        "A column plotted by a channel.",
        [
            .required("field", .string(), "The column's name."),
            .optional("type", FieldType.schema, "\"date\" reads the column as dates with dateFormat."),
            .optional("dateFormat", .string(minLength: 1), "A Unicode date pattern, such as yyyy-MM-dd."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape, expected: "a field descriptor {\"field\": …}")
        else { return nil }
        let field = object.required("field", as: String.self)
        let type = object.optional("type", as: FieldType.self)
        let format = object.optional("dateFormat", as: String.self)
        if let format {
            context.at("dateFormat") {
                if case .failure(let problem) = DatePattern.compile(format) {
                    context.error(
                        .invalidValue, at: object.offset(of: "dateFormat"),
                        "invalid date format \"\(format)\": \(problem.message)", hint: problem.hint)
                } else if type == nil {
                    context.warning(
                        .invalidValue, at: object.offset(of: "dateFormat"),
                        "dateFormat is used only with \"type\": \"date\"",
                        hint: "add \"type\": \"date\"")
                }
            }
        }
        guard let field else { return nil }
        self.init(field: field, type: type, dateFormat: format)
    }

    package var node: Node {
        .object([("field", .string(field)), ("type", type?.node), ("dateFormat", dateFormat?.node)])
    }

    /// The compiled date pattern, when this field is read as dates with an explicit format.
    var datePattern: DatePattern? {
        guard type == .date, let dateFormat, case .success(let pattern) = DatePattern.compile(dateFormat) else {
            return nil
        }
        return pattern
    }
}
