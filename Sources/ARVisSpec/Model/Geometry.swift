import ARVisSupport

/// A point, offset or extent in metres, written `[x, y, z]`: the one 3-vector of ARVis, from the
/// spec's positions to the spatial math.
public typealias Vec3 = SIMD3<Double>

extension SIMD3: NodeCodable where Scalar == Double {
    package init?(from node: Node, in context: DecodingContext) {
        guard let v = NumberList.read(node, context, names: ["x", "y", "z"]) else { return nil }
        self.init(v[0], v[1], v[2])
    }
    package var node: Node { .array([x.node, y.node, z.node]) }
    package static var schema: Schema { NumberList.schema(names: ["x", "y", "z"], description: "[x, y, z] in metres") }
    /// Named as the spec's documentation names it.
    package static var definitionName: String { "Vector3" }
}

/// A rotation as a unit quaternion, written `[x, y, z, w]`.
public struct Quaternion: Sendable, Hashable {
    /// The x part of the rotation axis times sin(angle / 2).
    public var x: Double
    /// The y part of the rotation axis times sin(angle / 2).
    public var y: Double
    /// The z part of the rotation axis times sin(angle / 2).
    public var z: Double
    /// The scalar part, cos(angle / 2); `[0, 0, 0, 1]` is no rotation.
    public var w: Double

    /// Creates a quaternion from its components.
    public init(x: Double, y: Double, z: Double, w: Double) {
        self.x = x
        self.y = y
        self.z = z
        self.w = w
    }

    /// No rotation.
    public static let identity = Quaternion(x: 0, y: 0, z: 0, w: 1)
}

extension Quaternion: NodeCodable {
    package init?(from node: Node, in context: DecodingContext) {
        guard let v = NumberList.read(node, context, names: ["x", "y", "z", "w"]) else { return nil }
        let length = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]).squareRoot()
        guard abs(length - 1) <= 1e-3 else {
            context.error(
                .invalidValue, at: node.offset,
                "a rotation must be a unit quaternion [x, y, z, w], this one has length \(length.node.compactText)",
                hint: length > 0 ? "divide each component by \(length.node.compactText)" : "[0, 0, 0, 1] is no rotation"
            )
            return nil
        }
        self.init(x: v[0], y: v[1], z: v[2], w: v[3])
    }
    package var node: Node { .array([x.node, y.node, z.node, w.node]) }
    package static var schema: Schema {
        NumberList.schema(names: ["x", "y", "z", "w"], description: "unit quaternion [x, y, z, w]")
    }
}

extension Size: NodeCodable {
    package init?(from node: Node, in context: DecodingContext) {
        guard let v = NumberList.read(node, context, names: ["width", "height"]) else { return nil }
        guard v[0] > 0, v[1] > 0 else {
            context.error(
                .invalidValue, at: node.offset,
                "a size must have a positive width and height, found [\(v[0].node.compactText), \(v[1].node.compactText)]"
            )
            return nil
        }
        self.init(width: v[0], height: v[1])
    }
    package var node: Node { .array([width.node, height.node]) }
    package static var schema: Schema {
        NumberList.schema(
            names: ["width", "height"], minimum: 0, description: "[width, height] in points, both positive")
    }
}

/// Insets on four edges in points, written `[leading, top, trailing, bottom]`.
public struct EdgeInsets: Sendable, Hashable {
    /// The inset on the leading (left) edge in points.
    public var leading: Double
    /// The inset on the top edge in points.
    public var top: Double
    /// The inset on the trailing (right) edge in points.
    public var trailing: Double
    /// The inset on the bottom edge in points.
    public var bottom: Double

    /// Creates insets.
    public init(leading: Double, top: Double, trailing: Double, bottom: Double) {
        self.leading = leading
        self.top = top
        self.trailing = trailing
        self.bottom = bottom
    }

    /// The same inset on every edge.
    public init(all value: Double) { self.init(leading: value, top: value, trailing: value, bottom: value) }
}

extension EdgeInsets: NodeCodable {
    private static let names = ["leading", "top", "trailing", "bottom"]
    package init?(from node: Node, in context: DecodingContext) {
        guard let v = NumberList.read(node, context, names: Self.names, minimum: 0) else { return nil }
        self.init(leading: v[0], top: v[1], trailing: v[2], bottom: v[3])
    }
    package var node: Node { .array([leading.node, top.node, trailing.node, bottom.node]) }
    package static var schema: Schema {
        NumberList.schema(names: names, minimum: 0, description: "[leading, top, trailing, bottom] in points")
    }
}
