public import ARVisSupport

/// A widget: a component shown on a plane attached to a target, with its size and placement.
///
/// Keys iARVis requires but that have a natural default (`positionOffset`) are optional in ARVis.
public struct WidgetConfiguration: Sendable, Hashable {
    /// The widget's content: one component, which may nest others.
    public var component: Component
    /// Where the widget attaches to its target; `auto` takes the first anchor point no sibling declares.
    public var relativeAnchorPoint: AnchorPoint
    /// Extra offset in metres in the target's frame (image: x right, y out of the image, z to its bottom).
    public var relativePosition: Vec3
    /// Added to `relativePosition`; iARVis requires the key, ARVis defaults to zero.
    public var positionOffset: Vec3?
    /// Scale the widget to the target's height (default false).
    public var alignedToTarget: Bool?
    /// White (true, the default) or transparent background.
    public var isOpaque: Bool?
    /// Scroll content taller than the widget (default true).
    public var isScrollEnabled: Bool?
    /// Show the expand-to-screen button (default true).
    public var showExpandButton: Bool?
    /// Content padding (default 16 points on every edge).
    public var padding: EdgeInsets?
    /// Metres per point (default 0.4/1024).
    public var scale: Double?
    /// Layout size in points (default 1024 × 768).
    public var size: Size?
    /// Child widgets attached to this widget, by key, in document order.
    public var additionalWidgetConfiguration: [AdditionalWidgetConfiguration]?

    /// The default scale, "level 0": 0.4 m per 1024 points.
    public static let defaultScale = 0.4 / 1024
    /// The default size, 1024 × 768 points.
    public static let defaultSize = Size(width: 1024, height: 768)
    /// The default padding, 16 points on every edge.
    public static let defaultPadding = EdgeInsets(all: 16)

    /// Creates a widget.
    public init(component: Component, relativeAnchorPoint: AnchorPoint = .auto, relativePosition: Vec3 = .zero) {
        self.component = component
        self.relativeAnchorPoint = relativeAnchorPoint
        self.relativePosition = relativePosition
    }
}

/// A child widget attached to another widget, normally created by a link at run time.
public struct AdditionalWidgetConfiguration: Sendable, Hashable {
    /// Decoded but never read by iARVis.
    public var hidden: Bool?
    /// The child's key: the link or component JSON that opened it, also the key of its entry.
    public var key: String
    /// The child widget, placed edge to edge with its parent in the parent's plane.
    public var widgetConfiguration: WidgetConfiguration

    /// Creates a child widget.
    public init(key: String, widgetConfiguration: WidgetConfiguration, hidden: Bool? = nil) {
        self.key = key
        self.widgetConfiguration = widgetConfiguration
        self.hidden = hidden
    }
}

/// A widget attached to a target: `{"widgetConfiguration": {…}}`.
public struct Relationship: Sendable, Hashable {
    /// The widget attached to the target.
    public var widgetConfiguration: WidgetConfiguration

    /// Wraps a widget.
    public init(_ widgetConfiguration: WidgetConfiguration) { self.widgetConfiguration = widgetConfiguration }
}

extension WidgetConfiguration: NodeCodable {
    static let shape = ObjectShape(
        "A widget: content on a plane attached to a target.",
        [
            .required("component", .ref(Component.self), "The widget's content."),
            .required("relativeAnchorPoint", AnchorPoint.schema, "Where the widget attaches to its target."),
            .required("relativePosition", .ref(Vec3.self), "Offset in metres in the target's frame."),
            .optional(
                "positionOffset", .ref(Vec3.self),
                "Added to relativePosition (default [0, 0, 0]; iARVis requires the key)."),
            .optional("alignedToTarget", .boolean, "Scale the widget to the target's height (default false)."),
            .optional("isOpaque", .boolean, "White (true, default) or transparent background."),
            .optional("isScrollEnabled", .boolean, "Scroll content taller than the widget (default true)."),
            .optional("showExpandButton", .boolean, "Show the expand button (default true)."),
            .optional(
                "padding", .ref(EdgeInsets.self), "Content padding [leading, top, trailing, bottom] (default 16 each)."),
            .optional(
                "scale", .number(exclusiveMinimum: 0, maximum: SpecLimits.largestWidgetScale),
                "Metres per point (default 0.000390625 = 0.4/1024)."),
            .optional("size", .ref(Size.self), "Layout size [width, height] in points (default [1024, 768])."),
            .optional(
                "additionalWidgetConfiguration", .map(.ref(AdditionalWidgetConfiguration.self)), "Child widgets by key."
            ),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let component = object.required("component", as: Component.self)
        let anchor = object.required("relativeAnchorPoint", as: AnchorPoint.self)
        let position = object.required("relativePosition", as: Vec3.self)
        guard let component, let anchor, let position else {
            _ = Self.readOptionals(object, context)
            return nil
        }
        self.init(component: component, relativeAnchorPoint: anchor, relativePosition: position)
        Self.readOptionals(object, context).apply(to: &self)
    }

    private struct Optionals {
        var offset: Vec3?, aligned: Bool?, opaque: Bool?, scroll: Bool?, expand: Bool?
        var padding: EdgeInsets?, scale: Double?, size: Size?, children: [AdditionalWidgetConfiguration]?

        func apply(to widget: inout WidgetConfiguration) {
            widget.positionOffset = offset
            widget.alignedToTarget = aligned
            widget.isOpaque = opaque
            widget.isScrollEnabled = scroll
            widget.showExpandButton = expand
            widget.padding = padding
            widget.scale = scale
            widget.size = size
            widget.additionalWidgetConfiguration = children
        }
    }

    private static func readOptionals(_ object: ObjectReader, _ context: DecodingContext) -> Optionals {
        Optionals(
            offset: object.optional("positionOffset"), aligned: object.optional("alignedToTarget"),
            opaque: object.optional("isOpaque"), scroll: object.optional("isScrollEnabled"),
            expand: object.optional("showExpandButton"), padding: object.optional("padding"),
            scale: object.positive(
                "scale", "a scale (metres per point)", maximum: SpecLimits.largestWidgetScale, context),
            size: object.optional("size"),
            children: object.value("additionalWidgetConfiguration").flatMap { node in
                context.at("additionalWidgetConfiguration") { readChildren(node, context) }
            })
    }

    private static func readChildren(_ node: Node, _ context: DecodingContext) -> [AdditionalWidgetConfiguration]? {
        guard let members = node.members else {
            context.typeMismatch(node, expected: "an object of child widgets by key")
            return nil
        }
        return members.compactMap { member in
            context.at(member.key) {
                let child = AdditionalWidgetConfiguration(from: member.value, in: context)
                if let child, child.key != member.key {
                    context.warning(
                        .invalidValue, at: member.value["key"]?.offset ?? member.value.offset,
                        "the child widget's key \"\(child.key)\" differs from its entry's key \"\(member.key)\"")
                }
                return child
            }
        }
    }

    package var node: Node {
        .object([
            ("component", component.node), ("relativeAnchorPoint", relativeAnchorPoint.node),
            ("relativePosition", relativePosition.node), ("positionOffset", positionOffset?.node),
            ("alignedToTarget", alignedToTarget?.node), ("isOpaque", isOpaque?.node),
            ("isScrollEnabled", isScrollEnabled?.node), ("showExpandButton", showExpandButton?.node),
            ("padding", padding?.node), ("scale", scale?.node), ("size", size?.node),
            (
                "additionalWidgetConfiguration",
                additionalWidgetConfiguration.map { children in
                    Node(.object(children.map { Node.Member(key: $0.key, value: $0.node) }))
                }
            ),
        ])
    }
}

extension AdditionalWidgetConfiguration: NodeCodable {
    static let shape = ObjectShape(
        "A child widget.",
        [
            .optional("hidden", .boolean, "Decoded but never read by iARVis."),
            .required("key", .string(), "The child's key (the link or JSON that opened it)."),
            .required(
                "widgetConfiguration", .ref(WidgetConfiguration.self), "The child widget, placed in its parent's plane."
            ),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let hidden = object.optional("hidden", as: Bool.self)
        let key = object.required("key", as: String.self)
        let widget = object.required("widgetConfiguration", as: WidgetConfiguration.self)
        guard let key, let widget else { return nil }
        self.init(key: key, widgetConfiguration: widget, hidden: hidden)
    }

    package var node: Node {
        .object([("hidden", hidden?.node), ("key", .string(key)), ("widgetConfiguration", widgetConfiguration.node)])
    }
}

extension Relationship: NodeCodable {
    static let shape = ObjectShape(
        "A widget attached to the target.",
        [
            .required("widgetConfiguration", .ref(WidgetConfiguration.self), "The widget.")
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard
            let widget = ObjectReader(node, context, shape: Self.shape)?.required(
                "widgetConfiguration", as: WidgetConfiguration.self)
        else { return nil }
        self.init(widget)
    }

    package var node: Node { .object([("widgetConfiguration", widgetConfiguration.node)]) }
}
