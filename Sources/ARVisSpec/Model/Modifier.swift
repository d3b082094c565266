/// A change applied to a component after it is built, in array order.
///
/// ```json
/// {"padding": {"leading": 8, "top": 8}}  {"background": {"color": "#FFF"}}
/// {"roundedCorner": {"radius": 8}}      {"onTap": {"action": {"openURL": {"url": "https://…"}}}}
/// ```
public enum Modifier: Sendable, Hashable {
    /// Padding per edge; an edge left out gets the system's default padding, as in SwiftUI.
    case padding(PaddingModifier)
    /// A background colour.
    case background(Color)
    /// A corner radius in points.
    case roundedCorner(radius: Double)
    /// What a tap on the component does.
    case onTap(ClickAction)

    static let caseNames = ["padding", "background", "roundedCorner", "onTap"]
}

/// Padding per edge in points; `nil` edges take the system default.
public struct PaddingModifier: Sendable, Hashable {
    /// Padding on the leading edge in points; the system default when absent.
    public var leading: Double?
    /// Padding on the top edge in points; the system default when absent.
    public var top: Double?
    /// Padding on the trailing edge in points; the system default when absent.
    public var trailing: Double?
    /// Padding on the bottom edge in points; the system default when absent.
    public var bottom: Double?

    /// Creates padding.
    public init(leading: Double? = nil, top: Double? = nil, trailing: Double? = nil, bottom: Double? = nil) {
        self.leading = leading
        self.top = top
        self.trailing = trailing
        self.bottom = bottom
    }
}

/// The action of a tap: iARVis knows one, opening a URL.
public enum ClickAction: Sendable, Hashable {
    /// Opens a web page or an `iARVis://` link.
    case openURL(String)
}

extension Modifier: NodeCodable {
    private static let paddingShape = ObjectShape(
        "Padding per edge in points; an edge left out gets the system default.",
        ["leading", "top", "trailing", "bottom"].map {
            .optional($0, .number(minimum: 0, maximum: SpecLimits.largestLength), "\($0) padding")
        })
    private static let backgroundShape = ObjectShape(
        "A background colour.", [.required("color", .ref(Color.self), "the colour")])
    private static let cornerShape = ObjectShape(
        "A rounded-corner clip.",
        [.required("radius", .number(minimum: 0, maximum: SpecLimits.largestLength), "the radius in points")])
    private static let tapShape = ObjectShape(
        "A tap action.", [.required("action", .ref(ClickAction.self), "what the tap does")])

    package init?(from node: Node, in context: DecodingContext) {
        guard
            let member = SingleKeyObject.read(
                node, context, cases: Self.caseNames, what: "modifier",
                manyKeysHint: "give each modifier its own object in the array")
        else { return nil }
        let modifier: Modifier? = context.at(member.key) { Self.decodeCase(member.key, member.value, context) }
        guard let modifier else { return nil }
        self = modifier
    }

    private static func decodeCase(_ key: String, _ node: Node, _ context: DecodingContext) -> Modifier? {
        switch key {
        case "padding":
            guard let object = ObjectReader(node, context, shape: paddingShape) else { return nil }
            let edges = ["leading", "top", "trailing", "bottom"].map { edge in
                let value = object.optional(edge, as: Double.self)
                return context.at(edge) {
                    NumberCheck.nonNegative(value, "padding", at: object.offset(of: edge), context)
                } ? value : nil
            }
            return .padding(PaddingModifier(leading: edges[0], top: edges[1], trailing: edges[2], bottom: edges[3]))
        case "background":
            return ObjectReader(node, context, shape: backgroundShape)?.required("color", as: Color.self).map(
                Modifier.background)
        case "roundedCorner":
            guard let object = ObjectReader(node, context, shape: cornerShape),
                let radius = object.required("radius", as: Double.self),
                context.at(
                    "radius",
                    { NumberCheck.nonNegative(radius, "a corner radius", at: object.offset(of: "radius"), context) })
            else { return nil }
            return .roundedCorner(radius: radius)
        default:
            return ObjectReader(node, context, shape: tapShape)?.required("action", as: ClickAction.self).map(
                Modifier.onTap)
        }
    }

    package var node: Node {
        switch self {
        case .padding(let padding):
            .object([
                (
                    "padding",
                    .object([
                        ("leading", padding.leading?.node), ("top", padding.top?.node),
                        ("trailing", padding.trailing?.node), ("bottom", padding.bottom?.node),
                    ])
                )
            ])
        case .background(let color): .object([("background", .object([("color", color.node)]))])
        case .roundedCorner(let radius): .object([("roundedCorner", .object([("radius", radius.node)]))])
        case .onTap(let action): .object([("onTap", .object([("action", action.node)]))])
        }
    }

    package static var schema: Schema {
        SingleKeyObject.schema([
            ("padding", .object(paddingShape)), ("background", .object(backgroundShape)),
            ("roundedCorner", .object(cornerShape)), ("onTap", .object(tapShape)),
        ])
    }
}

extension ClickAction: NodeCodable {
    package init?(from node: Node, in context: DecodingContext) {
        guard let member = SingleKeyObject.read(node, context, cases: ["openURL"], what: "action"),
            let url = context.at(member.key, { URLCheck.readActionObject(member.value, context) })
        else { return nil }
        self = .openURL(url)
    }

    package var node: Node {
        switch self {
        case .openURL(let url): .object([("openURL", .object([("url", .string(url))]))])
        }
    }

    package static var schema: Schema { SingleKeyObject.schema([("openURL", .object(URLCheck.actionObjectShape))]) }
}
