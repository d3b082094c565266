/// The `config` of a chart component: its data source, channels and styling, in one flat object.
public struct MarkConfiguration: Sendable, Hashable {
    /// The data source's label; the default is `"default"`.
    public var dataKey: String?
    /// The column on the x channel (simple bars, lines, points, areas and rules).
    public var x: FieldDescriptor?
    /// The column on the y channel (bars, single lines, points and areas).
    public var y: FieldDescriptor?
    /// Where a range bar or a rectangle starts on x.
    public var xStart: FieldDescriptor?
    /// Where a range bar or a rectangle ends on x.
    public var xEnd: FieldDescriptor?
    /// Where a rectangle or a rule's range starts on y.
    public var yStart: FieldDescriptor?
    /// Where a rectangle or a rule's range ends on y.
    public var yEnd: FieldDescriptor?
    /// Columns drawn as one line each (multi-series LineMark).
    public var ySeries: [String]?
    /// Fixed bar thickness in points (BarMark).
    public var height: Double?
    /// Area stacking (AreaMark); the default is `standard`.
    public var stacking: Stacking?
    /// How lines and areas run between points: `linear` (the default) or `cardinal`.
    public var interpolationMethod: InterpolationMethod?
    /// The point symbol, `Circle` (the default) or `Square`, written `{"type": …}`.
    public var symbol: SymbolShape?
    /// Point size; without `symbol` or `symbolSize` iARVis draws points with size 0 (invisible).
    public var symbolSize: Size0?
    /// Stroke width in points (default 1).
    public var lineWidth: Double?
    /// One colour for every datum, the highest priority: a colour map beside it never applies.
    public var foregroundStyleColor: Color?
    /// Colours by value: a datum takes the colour of the first entry it matches, else blue.
    public var foregroundStyleColorMap: [ColorMapEntry]?
    /// Colours the marks by this column's values (strings or integers), with a legend.
    public var foregroundStyleField: String?
    /// A constant series name for categorical colouring, shared by every datum.
    public var foregroundStyleValue: String?
    /// Groups marks side by side by this value; the constant `position` when absent.
    public var positionByValue: String?
    /// Corner radius of bars and rectangles in points (default 2).
    public var cornerRadius: Double?
    /// Annotations anchored at the component's first datum.
    public var annotations: [ChartAnnotation]?
    /// Annotations anchored at the first datum whose `field` equals `value`.
    public var conditionalAnnotations: [ConditionalAnnotation]?

    /// Creates an empty configuration; set the properties you need.
    public init(dataKey: String? = nil) { self.dataKey = dataKey }

    /// The data source label in effect.
    public var resolvedDataKey: String { dataKey ?? "default" }

    /// A width and height that may be zero, as `symbolSize` is.
    public struct Size0: Sendable, Hashable {
        /// Width in points; zero is allowed.
        public var width: Double
        /// Height in points; zero is allowed.
        public var height: Double

        /// Creates a size.
        public init(width: Double, height: Double) {
            self.width = width
            self.height = height
        }
    }
}

/// Colours a datum when its `field` equals `value`; the first matching entry wins.
public struct ColorMapEntry: Sendable, Hashable {
    /// The column compared with `value`.
    public var field: String
    /// The value a datum's `field` must equal to take `color`.
    public var value: DataValue
    /// The colour of the matching data.
    public var color: Color

    /// Creates an entry.
    public init(field: String, value: DataValue, color: Color) {
        self.field = field
        self.value = value
        self.color = color
    }
}

extension MarkConfiguration: NodeCodable {
    static let channels = ["x", "y", "xStart", "xEnd", "yStart", "yEnd"]
    static let shape = ObjectShape(
        "A mark's data, channels and styling.",
        [
            .optional("dataKey", .string(), "The label of the data source to plot (default \"default\").")
        ] + channels.map { .optional($0, .ref(FieldDescriptor.self), "The column on the \($0) channel.") } + [
            .optional(
                "ySeries", .array(.string(), minItems: 1), "Columns drawn as one line each (LineMark without y)."),
            .optional(
                "height", .number(exclusiveMinimum: 0, maximum: SpecLimits.largestLength),
                "Fixed bar thickness in points (BarMark)."),
            .optional("stacking", Stacking.schema, "Area stacking (AreaMark; default standard)."),
            .optional(
                "interpolationMethod", InterpolationMethod.schema, "Line and area interpolation (default linear)."),
            .optional("symbol", .object(symbolShape), "Point symbol (default Circle)."),
            .optional("symbolSize", .object(sizeShape), "Point size in points."),
            .optional("lineStyle", .object(lineShape), "Stroke style."),
            .optional("foregroundStyleColor", .ref(Color.self), "One colour for every datum (highest priority)."),
            .optional(
                "foregroundStyleColorMap", .array(.ref(ColorMapEntry.self)), "Colours by value; the first match wins."),
            .optional("foregroundStyleField", .string(), "Colour by this column's values, with a legend."),
            .optional("foregroundStyleValue", .string(), "A constant series name for colouring."),
            .optional("positionByValue", .string(), "Group marks side by side by this value."),
            .optional(
                "cornerRadius", .number(minimum: 0, maximum: SpecLimits.largestLength),
                "Bar and rectangle corner radius (default 2)."),
            .optional("annotations", .array(.ref(ChartAnnotation.self)), "Annotations at the first datum."),
            .optional(
                "conditionalAnnotations", .array(.ref(ConditionalAnnotation.self)),
                "Annotations at the first datum whose field equals value."),
        ])
    static let symbolShape = ObjectShape(
        "A point symbol.", [.required("type", SymbolShape.schema, "Circle or Square.")])
    static let sizeShape = ObjectShape(
        "A symbol size.",
        [
            .required("width", .number(minimum: 0, maximum: SpecLimits.largestLength), "Width in points."),
            .required("height", .number(minimum: 0, maximum: SpecLimits.largestLength), "Height in points."),
        ])
    static let lineShape = ObjectShape(
        "A stroke style.",
        [.required("lineWidth", .number(minimum: 0, maximum: SpecLimits.largestLength), "Stroke width in points.")])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        dataKey = object.optional("dataKey")
        x = object.optional("x")
        y = object.optional("y")
        xStart = object.optional("xStart")
        xEnd = object.optional("xEnd")
        yStart = object.optional("yStart")
        yEnd = object.optional("yEnd")
        ySeries = object.optional("ySeries")
        height = object.positive("height", "a bar height", context)
        stacking = object.optional("stacking")
        interpolationMethod = object.optional("interpolationMethod")
        symbol = object.value("symbol").flatMap { value in
            context.at("symbol") {
                ObjectReader(value, context, shape: Self.symbolShape)?.required("type", as: SymbolShape.self)
            }
        }
        symbolSize = object.value("symbolSize").flatMap { value in
            context.at("symbolSize") { Self.readSize(value, context) }
        }
        lineWidth = object.value("lineStyle").flatMap { value in
            context.at("lineStyle") {
                guard let style = ObjectReader(value, context, shape: Self.lineShape),
                    let width = style.required("lineWidth", as: Double.self)
                else { return nil }
                return context.at("lineWidth") {
                    NumberCheck.nonNegative(width, "a line width", at: style.offset(of: "lineWidth"), context)
                } ? width : nil
            }
        }
        foregroundStyleColor = object.optional("foregroundStyleColor")
        foregroundStyleColorMap = object.optional("foregroundStyleColorMap")
        if foregroundStyleColor != nil, foregroundStyleColorMap?.isEmpty == false {
            context.at("foregroundStyleColorMap") {
                context.warning(
                    .compatibility, at: object.offset(of: "foregroundStyleColorMap"),
                    "this colour map never applies: foregroundStyleColor colours every datum first, as in iARVis",
                    hint:
                        "remove foregroundStyleColor to let the map colour its values (the rest take the default blue)")
            }
        }
        foregroundStyleField = object.optional("foregroundStyleField")
        foregroundStyleValue = object.optional("foregroundStyleValue")
        positionByValue = object.optional("positionByValue")
        cornerRadius = object.nonNegative("cornerRadius", "a corner radius", context)
        annotations = object.optional("annotations")
        conditionalAnnotations = object.optional("conditionalAnnotations")
    }

    private static func readSize(_ node: Node, _ context: DecodingContext) -> Size0? {
        guard let object = ObjectReader(node, context, shape: sizeShape) else { return nil }
        let values = ["width", "height"].map { key in
            let value = object.required(key, as: Double.self)
            return context.at(key) {
                NumberCheck.nonNegative(value, "a symbol \(key)", at: object.offset(of: key), context)
            } ? value : nil
        }
        guard let width = values[0], let height = values[1] else { return nil }
        return Size0(width: width, height: height)
    }

    package var node: Node {
        .object([
            ("dataKey", dataKey?.node), ("x", x?.node), ("y", y?.node), ("xStart", xStart?.node), ("xEnd", xEnd?.node),
            ("yStart", yStart?.node), ("yEnd", yEnd?.node), ("ySeries", ySeries?.node), ("height", height?.node),
            ("stacking", stacking?.node), ("interpolationMethod", interpolationMethod?.node),
            ("symbol", symbol.map { .object([("type", $0.node)]) }),
            ("symbolSize", symbolSize.map { .object([("width", $0.width.node), ("height", $0.height.node)]) }),
            ("lineStyle", lineWidth.map { .object([("lineWidth", $0.node)]) }),
            ("foregroundStyleColor", foregroundStyleColor?.node),
            ("foregroundStyleColorMap", foregroundStyleColorMap?.node),
            ("foregroundStyleField", foregroundStyleField?.node), ("foregroundStyleValue", foregroundStyleValue?.node),
            ("positionByValue", positionByValue?.node), ("cornerRadius", cornerRadius?.node),
            ("annotations", annotations?.node), ("conditionalAnnotations", conditionalAnnotations?.node),
        ])
    }

    /// The channels that are set, by name, in the grammar's order.
    var setChannels: [(name: String, descriptor: FieldDescriptor)] {
        zip(Self.channels, [x, y, xStart, xEnd, yStart, yEnd]).compactMap { name, value in value.map { (name, $0) } }
    }
}

extension ColorMapEntry: NodeCodable {
    static let shape = ObjectShape(
        "A colour for the data whose field equals value.",
        [
            .required("field", .string(), "The column compared."),
            .required("value", .scalar, "The value that selects the colour."),
            .required("color", .ref(Color.self), "The colour."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let field = object.required("field", as: String.self)
        let value = object.required("value", as: DataValue.self)
        let color = object.required("color", as: Color.self)
        guard let field, let value, let color else { return nil }
        self.init(field: field, value: value, color: color)
    }

    package var node: Node { .object([("field", .string(field)), ("value", value.node), ("color", color.node)]) }
}
