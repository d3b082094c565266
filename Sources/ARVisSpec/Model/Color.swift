/// A colour in one of iARVis's three forms, kept as written so documents round-trip unchanged.
///
/// ```json
/// "red"   "#0F03"   {"rgba": {"r": 1, "g": 0.5, "b": 0, "a": 1}}   {"rgba256": {"r": 255, "g": 128, "b": 0, "a": 255}}
/// ```
public enum Color: Sendable, Hashable {
    /// A system colour by name.
    case named(NamedColor)
    /// `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` (alpha last), as written.
    case hex(String)
    /// Components from 0 to 1.
    case rgba(RGBA)
    /// Components from 0 to 255.
    case rgba256(RGBA)

    /// The colour's red, green, blue and alpha, each from 0 to 1.
    public var components: RGBA {
        switch self {
        case .named(let name): name.components
        case .hex(let text): Self.hexComponents(text) ?? RGBA(red: 0, green: 0, blue: 0, alpha: 1)
        case .rgba(let value): value
        case .rgba256(let value):
            RGBA(red: value.red / 255, green: value.green / 255, blue: value.blue / 255, alpha: value.alpha / 255)
        }
    }

    /// Parses `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA`; `nil` if `text` is none of them.
    public static func hexComponents(_ text: String) -> RGBA? {
        guard text.hasPrefix("#") else { return nil }
        let digits = text.dropFirst().map { $0.hexDigitValue }
        guard [3, 4, 6, 8].contains(digits.count), digits.allSatisfy({ $0 != nil }) else { return nil }
        let values: [Double] = digits.map { Double($0!) }
        var channels: [Double] = []
        if digits.count <= 4 {
            channels = values.map { (value: Double) -> Double in value * 17 / 255 }
        } else {
            for index in stride(from: 0, to: values.count, by: 2) {
                channels.append((values[index] * 16 + values[index + 1]) / 255)
            }
        }
        return RGBA(
            red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 1)
    }
}

/// Red, green, blue and alpha components.
public struct RGBA: Sendable, Hashable {
    /// The red component, written `r`: 0 to 1, or 0 to 255 in an `rgba256` colour.
    public var red: Double
    /// The green component, written `g`: 0 to 1, or 0 to 255 in an `rgba256` colour.
    public var green: Double
    /// The blue component, written `b`: 0 to 1, or 0 to 255 in an `rgba256` colour.
    public var blue: Double
    /// The opacity, written `a`: 0 to 1, or 0 to 255 in an `rgba256` colour; opaque when absent.
    public var alpha: Double

    /// Creates a colour from components.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
}

/// The named colours of iARVis (SwiftUI's system colours).
public enum NamedColor: String, Sendable, Hashable, CaseIterable, StringEnumeration {
    case black, blue, brown, clear, cyan, gray, green, indigo, mint, orange, pink, purple, red, teal, white, yellow

    package static var valueDescription: String { "a colour name" }

    /// The colour's components as SwiftUI shows them in light mode.
    public var components: RGBA {
        let bytes: (Double, Double, Double, Double) =
            switch self {
            case .black: (0, 0, 0, 255)
            case .blue: (0, 122, 255, 255)
            case .brown: (162, 132, 94, 255)
            case .clear: (0, 0, 0, 0)
            case .cyan: (50, 173, 230, 255)
            case .gray: (142, 142, 147, 255)
            case .green: (52, 199, 89, 255)
            case .indigo: (88, 86, 214, 255)
            case .mint: (0, 199, 190, 255)
            case .orange: (255, 149, 0, 255)
            case .pink: (255, 45, 85, 255)
            case .purple: (175, 82, 222, 255)
            case .red: (255, 59, 48, 255)
            case .teal: (48, 176, 199, 255)
            case .white: (255, 255, 255, 255)
            case .yellow: (255, 204, 0, 255)
            }
        return RGBA(red: bytes.0 / 255, green: bytes.1 / 255, blue: bytes.2 / 255, alpha: bytes.3 / 255)
    }
}

extension Color: NodeCodable {
    package init?(from node: Node, in context: DecodingContext) {
        switch node.kind {
        case .string(let text): self.init(text: text, at: node.offset, context)
        case .object(let members): self.init(members: members, node: node, context)
        default:
            context.typeMismatch(node, expected: "a colour (a name, \"#RRGGBB\" or {\"rgba\": …})")
            return nil
        }
    }

    private init?(text: String, at offset: Int, _ context: DecodingContext) {
        if text.hasPrefix("#") {
            guard Self.hexComponents(text) != nil else {
                context.error(
                    .invalidValue, at: offset, "\"\(text)\" is not a hex colour",
                    hint: "write #RGB, #RGBA, #RRGGBB or #RRGGBBAA with hexadecimal digits")
                return nil
            }
            self = .hex(text)
        } else if let name = NamedColor(rawValue: text) {
            self = .named(name)
        } else {
            let asHex = Self.hexComponents("#" + text) != nil ? "did you mean '#\(text)'?" : nil
            context.error(
                .invalidValue, at: offset, "\"\(text)\" is not a colour",
                hint: asHex ?? Suggestion.hint(for: text, among: NamedColor.allCases.map(\.rawValue), listing: true))
            return nil
        }
    }

    private init?(members: [Node.Member], node: Node, _ context: DecodingContext) {
        guard members.count == 1, let member = members.first, ["rgba", "rgba256"].contains(member.key) else {
            let keys = members.map { "\"\($0.key)\"" }.joined(separator: ", ")
            let hint = members.count == 1 ? Suggestion.hint(for: members[0].key, among: ["rgba", "rgba256"]) : nil
            context.error(
                .invalidValue, at: node.offset,
                "a colour object has exactly one key, \"rgba\" or \"rgba256\"; found \(members.isEmpty ? "none" : keys)",
                hint: hint)
            return nil
        }
        let maximum: Double = member.key == "rgba" ? 1 : 255
        guard let value = context.at(member.key, { RGBA.read(member.value, maximum: maximum, context) }) else {
            return nil
        }
        self = member.key == "rgba" ? .rgba(value) : .rgba256(value)
    }

    package var node: Node {
        switch self {
        case .named(let name): name.node
        case .hex(let text): .string(text)
        case .rgba(let value): .object([("rgba", value.node(maximum: 1))])
        case .rgba256(let value): .object([("rgba256", value.node(maximum: 255))])
        }
    }

    package static var schema: Schema {
        let channels = { (maximum: Double) in Schema.object(RGBA.channelShape(maximum: maximum)) }
        return .oneOf([
            NamedColor.schema.described("A system colour by name."),
            .string(pattern: "^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$")
                .described("#RGB, #RGBA, #RRGGBB or #RRGGBBAA (alpha last)."),
            .object(ObjectShape("Components from 0 to 1.", [.required("rgba", channels(1), "the components")])),
            .object(ObjectShape("Components from 0 to 255.", [.required("rgba256", channels(255), "the components")])),
        ])
    }
}

extension RGBA {
    /// The keys of `{"r", "g", "b", "a"}` with components from 0 to `maximum`.
    fileprivate static func channelShape(maximum: Double) -> ObjectShape {
        let range = Schema.number(minimum: 0, maximum: maximum)
        return ObjectShape(
            "Colour components from 0 to \(Int(maximum)).",
            [
                .required("r", range, "red"), .required("g", range, "green"), .required("b", range, "blue"),
                .optional("a", range, "alpha (default \(Int(maximum)), opaque)"),
            ])
    }
    private static let unitShape = channelShape(maximum: 1)
    private static let byteShape = channelShape(maximum: 255)

    fileprivate static func read(_ node: Node, maximum: Double, _ context: DecodingContext) -> RGBA? {
        let shape = maximum == 1 ? unitShape : byteShape
        guard let object = ObjectReader(node, context, shape: shape, expected: "an object {r, g, b, a}") else {
            return nil
        }
        let keys = ["r", "g", "b", "a"]
        let values = keys.map { key in
            let value = key == "a" ? object.optional(key, as: Double.self) : object.required(key, as: Double.self)
            let inRange = context.at(key) {
                NumberCheck.within(value, 0...maximum, "a colour component", at: object.offset(of: key), context)
            }
            return inRange ? value : nil
        }
        guard let red = values[0], let green = values[1], let blue = values[2] else { return nil }
        if object.value("a") != nil, values[3] == nil { return nil }
        return RGBA(red: red, green: green, blue: blue, alpha: values[3] ?? maximum)
    }

    fileprivate func node(maximum: Double) -> Node {
        .object([("r", red.node), ("g", green.node), ("b", blue.node), ("a", alpha.node)])
    }
}
