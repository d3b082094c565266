/// A component drawn at a position relative to a mark or to the whole chart.
public struct ChartAnnotation: Sendable, Hashable {
    /// Where the content sits relative to its datum or the chart, such as `topTrailing` or `center`.
    public var position: AnnotationPosition
    /// The component drawn: any component, including stacks with modifiers and tap actions.
    public var content: Component

    /// Creates an annotation.
    public init(position: AnnotationPosition, content: Component) {
        self.position = position
        self.content = content
    }
}

/// An annotation drawn at the first datum whose `field` equals `value`.
public struct ConditionalAnnotation: Sendable, Hashable {
    /// The column compared with `value`.
    public var field: String
    /// The value that picks the datum: the first row whose `field` equals it.
    public var value: DataValue
    /// The annotation drawn at that datum.
    public var annotation: ChartAnnotation

    /// Creates a conditional annotation.
    public init(field: String, value: DataValue, annotation: ChartAnnotation) {
        self.field = field
        self.value = value
        self.annotation = annotation
    }
}

extension ChartAnnotation: NodeCodable {
    static let shape = ObjectShape(
        "A component placed relative to a mark or the chart.",
        [
            .required("position", AnnotationPosition.schema, "Where the content sits."),
            .required("content", .ref(Component.self), "What is drawn."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let position = object.required("position", as: AnnotationPosition.self)
        let content = object.required("content", as: Component.self)
        guard let position, let content else { return nil }
        self.init(position: position, content: content)
    }

    package var node: Node { .object([("position", position.node), ("content", content.node)]) }
}

extension ConditionalAnnotation: NodeCodable {
    static let shape = ObjectShape(
        "An annotation at the first datum whose field equals value.",
        [
            .required("field", .string(), "The column compared."),
            .required("value", .scalar, "The value that selects the datum."),
            .required("annotation", .ref(ChartAnnotation.self), "The annotation."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let field = object.required("field", as: String.self)
        let value = object.required("value", as: DataValue.self)
        let annotation = object.required("annotation", as: ChartAnnotation.self)
        guard let field, let value, let annotation else { return nil }
        self.init(field: field, value: value, annotation: annotation)
    }

    package var node: Node {
        .object([("field", .string(field)), ("value", value.node), ("annotation", annotation.node)])
    }
}
