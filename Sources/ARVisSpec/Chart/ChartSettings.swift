/// A chart scale: whether it includes zero, or a fixed domain.
public struct ScaleConfiguration: Sendable, Hashable {
    /// Whether the scale includes zero; it wins over `domain` when both are set, as in iARVis.
    public var includingZero: Bool?
    /// Two or more values (numbers or date strings); the scale spans their range.
    public var domain: [DataValue]?

    /// Creates a scale configuration.
    public init(includingZero: Bool? = nil, domain: [DataValue]? = nil) {
        self.includingZero = includingZero
        self.domain = domain
    }
}

/// A chart axis: hidden, or with marks at a date stride and a year label format.
public struct AxisConfiguration: Sendable, Hashable {
    /// Ticks every `count` units of `component`.
    public struct DateStride: Sendable, Hashable {
        /// The calendar unit the ticks step by, such as `year`.
        public var component: CalendarComponent
        /// How many units lie between ticks, at least 1.
        public var count: Int

        /// Creates a stride.
        public init(component: CalendarComponent, count: Int) {
            self.component = component
            self.count = count
        }
    }

    /// Hide the axis (default false).
    public var hidden: Bool?
    /// Where ticks go (`axisMarks.axisMarksValues.strideByDateComponent`).
    public var stride: DateStride?
    /// How year labels are written (`axisMarks.axisValueLabel.format.year.format`).
    public var yearLabelFormat: YearLabelFormat?
    /// Whether `axisMarks` is written even when it sets nothing.
    public var hasAxisMarks: Bool

    /// Creates an axis configuration.
    public init(hidden: Bool? = nil, stride: DateStride? = nil, yearLabelFormat: YearLabelFormat? = nil) {
        self.hidden = hidden
        self.stride = stride
        self.yearLabelFormat = yearLabelFormat
        self.hasAxisMarks = stride != nil || yearLabelFormat != nil
    }
}

/// The chart legend.
public struct LegendConfiguration: Sendable, Hashable {
    /// Hide the legend (default false).
    public var hidden: Bool?

    /// Creates a legend configuration.
    public init(hidden: Bool? = nil) { self.hidden = hidden }
}

/// The chart's frame: despite the names, `maxWidth` and `maxHeight` fix the size (as in iARVis).
public struct ChartStyle: Sendable, Hashable {
    /// The chart's fixed width in points, despite the name; the available width when absent.
    public var maxWidth: Double?
    /// Without it the chart's height is at most 200 points.
    public var maxHeight: Double?
    /// Default `[0, 16, 0, 16]`.
    public var padding: EdgeInsets?

    /// Creates a chart style.
    public init(maxWidth: Double? = nil, maxHeight: Double? = nil, padding: EdgeInsets? = nil) {
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.padding = padding
    }
}

extension ScaleConfiguration: NodeCodable {
    static let shape = ObjectShape(
        "A chart scale.",
        [
            .optional("includingZero", .boolean, "Whether the scale includes zero (wins over domain, as in iARVis)."),
            .optional(
                "domain", .array(.oneOf([.number(), .string()]), minItems: 2),
                "The scale's range: numbers or date strings."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        includingZero = object.optional("includingZero")
        domain = object.optional("domain")
        if let domain { context.at("domain") { Self.check(domain, at: object.value("domain")!, context) } }
        if includingZero != nil, domain != nil {
            context.warning(
                .compatibility, at: object.offset(of: "includingZero"),
                "includingZero and domain are both set; iARVis and ARVis use includingZero",
                hint: "remove one of them")
        }
    }

    private static func check(_ domain: [DataValue], at node: Node, _ context: DecodingContext) {
        guard domain.count >= 2 else {
            context.error(.invalidValue, at: node.offset, "a domain needs at least two values, found \(domain.count)")
            return
        }
        let numeric = domain.allSatisfy { $0.number != nil }
        let dates = domain.allSatisfy { value in value.text.map { DatePattern.detect($0) != nil } ?? false }
        if !numeric && !dates {
            context.error(
                .invalidValue, at: node.offset,
                "a domain holds numbers or dates, not \(domain.map { $0.node.compactText }.joined(separator: ", "))",
                hint: "write dates as yyyy-MM-dd")
        }
    }

    package var node: Node { .object([("includingZero", includingZero?.node), ("domain", domain?.node)]) }
}

extension AxisConfiguration: NodeCodable {
    static let strideShape = ObjectShape(
        "Ticks every count units.",
        [
            .required("component", CalendarComponent.schema, "The calendar unit."),
            .required("count", .integer(minimum: 1, maximum: SpecLimits.largestStrideCount), "Units between ticks."),
        ])
    static let valuesShape = ObjectShape(
        "Where ticks go.", [.optional("strideByDateComponent", .object(strideShape), "A date stride.")])
    static let yearShape = ObjectShape(
        "A year format.", [.required("format", YearLabelFormat.schema, "defaultDigits.")])
    static let formatShape = ObjectShape(
        "A label format.", [.required("year", .object(yearShape), "How years are written.")])
    static let labelShape = ObjectShape(
        "Tick labels.", [.required("format", .object(formatShape), "The label format.")])
    static let marksShape = ObjectShape(
        "Axis ticks and labels.",
        [
            .optional("axisMarksValues", .object(valuesShape), "Where ticks go."),
            .optional("axisValueLabel", .object(labelShape), "How tick labels are written."),
        ])
    static let shape = ObjectShape(
        "A chart axis.",
        [
            .optional("hidden", .boolean, "Hide the axis."),
            .optional("axisMarks", .object(marksShape), "Ticks and labels."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        self.init(hidden: object.optional("hidden"))
        guard let marks = object.value("axisMarks") else { return }
        hasAxisMarks = true
        context.at("axisMarks") {
            guard let marksObject = ObjectReader(marks, context, shape: Self.marksShape) else { return }
            stride = Self.nested(
                marksObject, [("axisMarksValues", Self.valuesShape), ("strideByDateComponent", Self.strideShape)],
                context
            ) { stride in
                guard let component = stride.required("component", as: CalendarComponent.self),
                    let count = stride.required("count", as: Int.self)
                else { return nil }
                guard (1...SpecLimits.largestStrideCount).contains(count) else {
                    context.at("count") {
                        context.error(
                            .invalidValue, at: stride.offset(of: "count"),
                            "a stride count must be between 1 and \(SpecLimits.largestStrideCount), found \(count)")
                    }
                    return nil
                }
                return DateStride(component: component, count: count)
            }
            yearLabelFormat = Self.nested(
                marksObject,
                [("axisValueLabel", Self.labelShape), ("format", Self.formatShape), ("year", Self.yearShape)], context
            ) {
                $0.required("format", as: YearLabelFormat.self)
            }
        }
    }

    /// Reads a chain of nested objects (the first optional, the rest required) and then the innermost one.
    private static func nested<T>(
        _ object: ObjectReader, _ chain: ArraySlice<(key: String, shape: ObjectShape)>, isFirst: Bool = true,
        _ context: DecodingContext, _ read: (ObjectReader) -> T?
    ) -> T? {
        guard let (key, shape) = chain.first else { return read(object) }
        guard let child = object.value(key) else {
            if !isFirst { object.reportMissing(key) }
            return nil
        }
        return context.at(key) {
            ObjectReader(child, context, shape: shape).flatMap {
                nested($0, chain.dropFirst(), isFirst: false, context, read)
            }
        }
    }

    package var node: Node {
        let values = stride.map { stride in
            Node.object([
                (
                    "strideByDateComponent",
                    .object([("component", stride.component.node), ("count", stride.count.node)])
                )
            ])
        }
        let label = yearLabelFormat.map {
            Node.object([("format", .object([("year", .object([("format", $0.node)]))]))])
        }
        let marks: Node? = hasAxisMarks ? .object([("axisMarksValues", values), ("axisValueLabel", label)]) : nil
        return .object([("hidden", hidden?.node), ("axisMarks", marks)])
    }
}

extension LegendConfiguration: NodeCodable {
    static let shape = ObjectShape("The chart legend.", [.optional("hidden", .boolean, "Hide the legend.")])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        self.init(hidden: object.optional("hidden"))
    }

    package var node: Node { .object([("hidden", hidden?.node)]) }
}

extension ChartStyle: NodeCodable {
    static let shape = ObjectShape(
        "The chart's frame.",
        [
            .optional(
                "maxWidth", .number(exclusiveMinimum: 0, maximum: SpecLimits.largestLength), "Fixed width in points."),
            .optional(
                "maxHeight", .number(exclusiveMinimum: 0, maximum: SpecLimits.largestLength),
                "Fixed height in points (without it, at most 200)."),
            .optional("padding", .ref(EdgeInsets.self), "[leading, top, trailing, bottom] (default [0, 16, 0, 16])."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        self.init(
            maxWidth: object.positive("maxWidth", "a chart width", context),
            maxHeight: object.positive("maxHeight", "a chart height", context),
            padding: object.optional("padding"))
    }

    package var node: Node {
        .object([("maxWidth", maxWidth?.node), ("maxHeight", maxHeight?.node), ("padding", padding?.node)])
    }
}
