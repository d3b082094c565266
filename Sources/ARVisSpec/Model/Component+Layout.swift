extension Component {
    /// Children side by side.
    public struct HStack: Sendable, Hashable {
        /// The children, leading to trailing.
        public var elements: [Component]
        /// Vertical alignment of the children: `center` (the default), `top` or `bottom`.
        public var alignment: VerticalAlignment?
        /// Space between children in points; the system's default spacing when absent.
        public var spacing: Double?
        /// Modifiers applied in order after the stack is built.
        public var modifiers: [Modifier]?

        /// Creates a horizontal stack.
        public init(
            elements: [Component], alignment: VerticalAlignment? = nil, spacing: Double? = nil,
            modifiers: [Modifier]? = nil
        ) {
            self.elements = elements
            self.alignment = alignment
            self.spacing = spacing
            self.modifiers = modifiers
        }
    }

    /// Children one above the other.
    public struct VStack: Sendable, Hashable {
        /// The children, top to bottom.
        public var elements: [Component]
        /// Horizontal alignment of the children: `center` (the default), `leading` or `trailing`.
        public var alignment: HorizontalAlignment?
        /// Space between children in points; the system's default spacing when absent.
        public var spacing: Double?
        /// Modifiers applied in order after the stack is built.
        public var modifiers: [Modifier]?

        /// Creates a vertical stack.
        public init(
            elements: [Component], alignment: HorizontalAlignment? = nil, spacing: Double? = nil,
            modifiers: [Modifier]? = nil
        ) {
            self.elements = elements
            self.alignment = alignment
            self.spacing = spacing
            self.modifiers = modifiers
        }
    }

    /// Flexible empty space in a stack, written `{"spacer": {}}`.
    public struct Spacer: Sendable, Hashable {
        /// Creates a spacer.
        public init() {}
    }

    /// A thin line between components.
    public struct Divider: Sendable, Hashable {
        /// Opacity from 0 to 1; iARVis requires it in JSON, ARVis defaults to 0.5.
        public var opacity: Double?
        /// Modifiers applied in order after the divider is built.
        public var modifiers: [Modifier]?

        /// Creates a divider.
        public init(opacity: Double? = 0.5, modifiers: [Modifier]? = nil) {
            self.opacity = opacity
            self.modifiers = modifiers
        }
    }

    /// A grid of rows, normally `gridRow` components.
    public struct Grid: Sendable, Hashable {
        /// The rows, top to bottom, normally `gridRow` components.
        public var rows: [Component]
        /// Modifiers applied in order after the grid is built.
        public var modifiers: [Modifier]?

        /// Creates a grid.
        public init(rows: [Component], modifiers: [Modifier]? = nil) {
            self.rows = rows
            self.modifiers = modifiers
        }
    }

    /// One row of a grid.
    public struct GridRow: Sendable, Hashable {
        /// The cells, leading to trailing.
        public var rowElements: [Component]
        /// Modifiers applied in order after the row is built.
        public var modifiers: [Modifier]?

        /// Creates a grid row.
        public init(rowElements: [Component], modifiers: [Modifier]? = nil) {
            self.rowElements = rowElements
            self.modifiers = modifiers
        }
    }

    /// A segmented picker showing one item's component at a time.
    public struct SegmentedControl: Sendable, Hashable {
        /// One segment: its title and its content.
        public struct Item: Sendable, Hashable {
            /// The segment's title, shown in the picker.
            public var title: String
            /// What the segment shows while it is selected.
            public var component: Component

            /// Creates a segment.
            public init(title: String, component: Component) {
                self.title = title
                self.component = component
            }
        }

        /// The segments in picker order, at least one; the first is selected at first.
        public var items: [Item]
        /// Modifiers applied in order after the control is built.
        public var modifiers: [Modifier]?

        /// Creates a segmented control.
        public init(items: [Item], modifiers: [Modifier]? = nil) {
            self.items = items
            self.modifiers = modifiers
        }
    }
}

extension Component.HStack: NodeCodable {
    static let shape = StackCoding.shape(
        "Children side by side.", order: "leading to trailing", alignment: VerticalAlignment.self, across: "Vertical")
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let stack = StackCoding.read(node, context, shape: Self.shape, alignment: VerticalAlignment.self) else {
            return nil
        }
        self.init(
            elements: stack.elements, alignment: stack.alignment, spacing: stack.spacing, modifiers: stack.modifiers)
    }

    package var node: Node { StackCoding.node(elements, alignment, spacing, modifiers) }
}

extension Component.VStack: NodeCodable {
    static let shape = StackCoding.shape(
        "Children one above the other.", order: "top to bottom", alignment: HorizontalAlignment.self,
        across: "Horizontal")
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let stack = StackCoding.read(node, context, shape: Self.shape, alignment: HorizontalAlignment.self) else {
            return nil
        }
        self.init(
            elements: stack.elements, alignment: stack.alignment, spacing: stack.spacing, modifiers: stack.modifiers)
    }

    package var node: Node { StackCoding.node(elements, alignment, spacing, modifiers) }
}

/// What horizontal and vertical stacks share: their keys, how they are read and how they are written.
/// They differ only in the alignment across their axis.
enum StackCoding {
    /// A stack's parts as read from a document.
    struct Parts<Alignment> {
        var elements: [Component]
        var alignment: Alignment?
        var spacing: Double?
        var modifiers: [Modifier]?
    }

    static func shape<Alignment: StringEnumeration>(
        _ documentation: String, order: String, alignment: Alignment.Type, across: String
    ) -> ObjectShape {
        ObjectShape(
            documentation,
            [
                .required("elements", Schema.components, "The children, \(order)."),
                .optional("alignment", Alignment.schema, "\(across) alignment of the children (default center)."),
                .optional(
                    "spacing", .number(minimum: 0, maximum: SpecLimits.largestLength),
                    "Space between children in points (default: the system's)."),
                Schema.modifiersProperty,
            ])
    }

    static func read<Alignment: StringEnumeration>(
        _ node: Node, _ context: DecodingContext, shape: ObjectShape, alignment: Alignment.Type
    ) -> Parts<Alignment>? {
        guard let object = ObjectReader(node, context, shape: shape) else { return nil }
        let elements = object.required("elements", as: [Component].self)
        let alignment = object.optional("alignment", as: Alignment.self)
        let spacing = object.nonNegative("spacing", "spacing", context)
        let modifiers = object.optional("modifiers", as: [Modifier].self)
        guard let elements else { return nil }
        return Parts(elements: elements, alignment: alignment, spacing: spacing, modifiers: modifiers)
    }

    static func node<Alignment: StringEnumeration>(
        _ elements: [Component], _ alignment: Alignment?, _ spacing: Double?, _ modifiers: [Modifier]?
    ) -> Node {
        .object([
            ("alignment", alignment?.node), ("spacing", spacing?.node), ("elements", elements.node),
            ("modifiers", modifiers?.node),
        ])
    }
}

extension Component.Spacer: NodeCodable {
    static let shape = ObjectShape("Flexible empty space; its value is an empty object.", [])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard ObjectReader(node, context, shape: Self.shape, expected: "an empty object {}") != nil else { return nil }
    }

    package var node: Node { .object([]) }
}

extension Component.Divider: NodeCodable {
    static let shape = ObjectShape(
        "A thin line.",
        [
            .optional(
                "opacity", .number(minimum: 0, maximum: 1),
                "Opacity from 0 to 1 (default 0.5; iARVis requires the key)."),
            Schema.modifiersProperty,
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let opacity = object.optional("opacity", as: Double.self)
        let valid = context.at("opacity") {
            NumberCheck.within(opacity, 0...1, "an opacity", at: object.offset(of: "opacity"), context)
        }
        let modifiers = object.optional("modifiers", as: [Modifier].self)
        guard valid else { return nil }
        self.init(opacity: opacity, modifiers: modifiers)
    }

    package var node: Node { .object([("opacity", opacity?.node), ("modifiers", modifiers?.node)]) }
}

extension Component.Grid: NodeCodable {
    static let shape = ObjectShape(
        "A grid of rows.",
        [
            .required("rows", Schema.components, "The rows, normally gridRow components."),
            Schema.modifiersProperty,
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let rows = object.required("rows", as: [Component].self)
        let modifiers = object.optional("modifiers", as: [Modifier].self)
        guard let rows else { return nil }
        self.init(rows: rows, modifiers: modifiers)
    }

    package var node: Node { .object([("rows", rows.node), ("modifiers", modifiers?.node)]) }
}

extension Component.GridRow: NodeCodable {
    static let shape = ObjectShape(
        "One row of a grid.",
        [
            .required("rowElements", Schema.components, "The cells, leading to trailing."),
            Schema.modifiersProperty,
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let elements = object.required("rowElements", as: [Component].self)
        let modifiers = object.optional("modifiers", as: [Modifier].self)
        guard let elements else { return nil }
        self.init(rowElements: elements, modifiers: modifiers)
    }

    package var node: Node { .object([("rowElements", rowElements.node), ("modifiers", modifiers?.node)]) }
}

extension Component.SegmentedControl: NodeCodable {
    static let shape = ObjectShape(
        "A segmented picker showing the selected item's component.",
        [
            .required("items", .array(.ref(Item.self), minItems: 1), "The segments, in order."),
            Schema.modifiersProperty,
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let items = object.required("items", as: [Item].self)
        if items?.isEmpty == true {
            context.at("items") {
                context.error(
                    .invalidValue, at: object.offset(of: "items"), "a segmented control needs at least one item")
            }
        }
        let modifiers = object.optional("modifiers", as: [Modifier].self)
        guard let items, !items.isEmpty else { return nil }
        self.init(items: items, modifiers: modifiers)
    }

    package var node: Node { .object([("items", items.node), ("modifiers", modifiers?.node)]) }
}

extension Component.SegmentedControl.Item: NodeCodable {
    static let shape = ObjectShape(
        "One segment.",
        [
            .required("title", .string(), "The segment's title."),
            .required("component", .ref(Component.self), "What the segment shows."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let title = object.required("title", as: String.self)
        let component = object.required("component", as: Component.self)
        guard let title, let component else { return nil }
        self.init(title: title, component: component)
    }

    package var node: Node { .object([("title", .string(title)), ("component", component.node)]) }
}
