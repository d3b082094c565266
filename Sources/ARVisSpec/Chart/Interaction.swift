/// What a chart does when the viewer hovers over or taps a mark.
///
/// ```json
/// {"type": "Hover", "tooltip": {"type": "Manual", "config": [{"field": "Name", "value": "Ensor", "content": {…}}]}}
/// {"type": "Click", "action": {"type": "OpenURL", "config": {"url": "https://…"}}}
/// ```
public enum Interaction: Sendable, Hashable {
    /// Shows a tooltip for the datum under the pointer.
    case hover(Tooltip)
    /// Opens a URL when a datum is tapped.
    case click(url: String)
}

/// A hover tooltip: the content shown for each datum value.
public struct Tooltip: Sendable, Hashable {
    /// How tooltip content is chosen.
    public enum Kind: String, Sendable, Hashable, CaseIterable, StringEnumeration {
        /// Content listed per field value.
        case manual = "Manual"
        /// Content generated from the datum (iARVis declares it but stops with a fatal error).
        case auto = "Auto"
        package static var valueDescription: String { "a tooltip type" }
    }

    /// The content for the data whose `field` equals `value`.
    public struct Entry: Sendable, Hashable {
        /// The column compared with `value`.
        public var field: String
        /// The value that selects this content: it is shown for data whose `field` equals it.
        public var value: DataValue
        /// The component the tooltip shows.
        public var content: Component

        /// Creates an entry.
        public init(field: String, value: DataValue, content: Component) {
            self.field = field
            self.value = value
            self.content = content
        }
    }

    /// How content is chosen, written `type`: `Manual` (listed per value) or `Auto` (iARVis stops on it).
    public var kind: Kind
    /// The content per field value, written `config`; required for `Manual` tooltips.
    public var entries: [Entry]?

    /// Creates a tooltip.
    public init(kind: Kind = .manual, entries: [Entry]? = nil) {
        self.kind = kind
        self.entries = entries
    }
}

extension Interaction: NodeCodable {
    private enum Kind: String, CaseIterable, StringEnumeration {
        case hover = "Hover"
        case click = "Click"
        static var valueDescription: String { "an interaction type" }
    }
    private enum ActionKind: String, CaseIterable, StringEnumeration {
        case openURL = "OpenURL"
        static var valueDescription: String { "an action type" }
    }

    static let shape = ObjectShape(
        "A Hover tooltip or a Click action.",
        [
            .required("type", Kind.schema, "Hover or Click."),
            .optional("tooltip", .ref(Tooltip.self), "The tooltip (Hover)."),
            .optional("action", .object(actionShape), "The action (Click)."),
        ])
    static let actionShape = ObjectShape(
        "Opens a URL.",
        [
            .required("type", ActionKind.schema, "OpenURL."),
            .required("config", .object(URLCheck.actionObjectShape), "{\"url\": …}"),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        switch object.required("type", as: Kind.self) {
        case .hover:
            guard object.value("tooltip") != nil else {
                object.reportMissing("tooltip")
                return nil
            }
            guard let tooltip = object.optional("tooltip", as: Tooltip.self) else { return nil }
            self = .hover(tooltip)
        case .click:
            guard let action = object.value("action") else {
                object.reportMissing("action")
                return nil
            }
            guard let url = context.at("action", { Self.readAction(action, context) }) else { return nil }
            self = .click(url: url)
        case nil:
            return nil
        }
    }

    private static func readAction(_ node: Node, _ context: DecodingContext) -> String? {
        guard let action = ObjectReader(node, context, shape: actionShape),
            action.required("type", as: ActionKind.self) != nil,
            let config = action.value("config")
                ?? {
                    action.reportMissing("config")
                    return nil
                }()
        else { return nil }
        return context.at("config") { URLCheck.readActionObject(config, context) }
    }

    package var node: Node {
        switch self {
        case .hover(let tooltip): .object([("type", .string("Hover")), ("tooltip", tooltip.node)])
        case .click(let url):
            .object([
                ("type", .string("Click")),
                ("action", .object([("type", .string("OpenURL")), ("config", .object([("url", .string(url))]))])),
            ])
        }
    }
}

extension Tooltip: NodeCodable {
    static let shape = ObjectShape(
        "A tooltip.",
        [
            .required("type", Kind.schema, "Manual (content per value) or Auto (generated)."),
            .optional("config", .array(.ref(Entry.self)), "The content per field value (Manual)."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let kind = object.required("type", as: Kind.self)
        let entries = object.optional("config", as: [Entry].self)
        if kind == .manual, object.value("config") == nil { object.reportMissing("config") }
        if kind == .auto {
            context.warning(
                .compatibility, at: object.offset(of: "type"),
                "iARVis stops with a fatal error on \"Auto\" tooltips; only ARVis shows them")
        }
        guard let kind, kind == .auto || entries != nil else { return nil }
        self.init(kind: kind, entries: entries)
    }

    package var node: Node { .object([("type", kind.node), ("config", entries?.node)]) }
}

extension Tooltip.Entry: NodeCodable {
    static let shape = ObjectShape(
        "Tooltip content for the data whose field equals value.",
        [
            .required("field", .string(), "The column compared."),
            .required("value", .scalar, "The value that selects this content."),
            .required("content", .ref(Component.self), "What the tooltip shows."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let field = object.required("field", as: String.self)
        let value = object.required("value", as: DataValue.self)
        let content = object.required("content", as: Component.self)
        guard let field, let value, let content else { return nil }
        self.init(field: field, value: value, content: content)
    }

    package var node: Node { .object([("field", .string(field)), ("value", value.node), ("content", content.node)]) }
}
