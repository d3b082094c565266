import ARVisSupport

/// Font size, weight, design and colour of a text component.
public struct FontStyle: Sendable, Hashable {
    /// Size in points.
    public var size: Double
    /// Weight; iARVis's default is ``FontWeight/regular``.
    public var weight: FontWeight?
    /// Design; iARVis's default is ``FontDesign/rounded``.
    public var design: FontDesign?
    /// Text colour; the default is the primary text colour.
    public var color: Color?

    /// Creates a font style.
    public init(size: Double, weight: FontWeight? = nil, design: FontDesign? = nil, color: Color? = nil) {
        self.size = size
        self.weight = weight
        self.design = design
        self.color = color
    }

    /// The weight in effect.
    public var resolvedWeight: FontWeight { weight ?? .regular }
    /// The design in effect.
    public var resolvedDesign: FontDesign { design ?? .rounded }
}

extension FontStyle: NodeCodable {
    static let shape = ObjectShape(
        "Font of a text component.",
        [
            .required("size", .number(exclusiveMinimum: 0, maximum: SpecLimits.largestFontSize), "Size in points."),
            .optional("weight", FontWeight.schema, "Weight (default regular)."),
            .optional("design", FontDesign.schema, "Design (default rounded)."),
            .optional("color", .ref(Color.self), "Text colour."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let size = object.required("size", as: Double.self)
        context.at("size") {
            NumberCheck.positive(
                size, "a font size", maximum: SpecLimits.largestFontSize, at: object.offset(of: "size"), context)
        }
        let weight = object.optional("weight", as: FontWeight.self)
        let design = object.optional("design", as: FontDesign.self)
        let color = object.optional("color", as: Color.self)
        guard let size, size > 0 else { return nil }
        self.init(size: size, weight: weight, design: design, color: color)
    }

    package var node: Node {
        .object([("size", size.node), ("weight", weight?.node), ("design", design?.node), ("color", color?.node)])
    }
}

/// Font weights.
public enum FontWeight: String, Sendable, Hashable, CaseIterable, StringEnumeration {
    case ultraLight, thin, light, regular, medium, semibold, bold, heavy, black
    package static var valueDescription: String { "a font weight" }
}

/// Font designs: `rounded` is iARVis's default.
public enum FontDesign: String, Sendable, Hashable, CaseIterable, StringEnumeration {
    case `default`, monospaced, rounded, serif
    package static var valueDescription: String { "a font design" }
}

/// Horizontal alignment of a vertical stack's children.
public enum HorizontalAlignment: String, Sendable, Hashable, CaseIterable, StringEnumeration {
    case center, leading, trailing
    package static var valueDescription: String { "a horizontal alignment" }
}

/// Vertical alignment of a horizontal stack's children.
public enum VerticalAlignment: String, Sendable, Hashable, CaseIterable, StringEnumeration {
    case center, top, bottom
    package static var valueDescription: String { "a vertical alignment" }
}

/// Alignment of the lines of a multi-line text.
public enum TextAlignment: String, Sendable, Hashable, CaseIterable, StringEnumeration {
    case center, leading, trailing
    package static var valueDescription: String { "a text alignment" }
}

/// How an image fills its frame.
public enum ContentMode: String, Sendable, Hashable, CaseIterable, StringEnumeration {
    case fit, fill
    package static var valueDescription: String { "a content mode" }
}
