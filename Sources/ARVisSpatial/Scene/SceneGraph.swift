public import ARVisSpec
public import ARVisSupport
import Foundation

/// One node of a composed scene: a target, a widget, a placed model or an annotation marker.
public struct SceneNode: Sendable, Hashable {
    /// What a node stands for.
    public enum Kind: String, Sendable, Hashable {
        /// An image, object, world or geo target; a widget; a placed model; an annotation marker.
        case target, widget, placement, annotation
    }

    /// A stable id: `image1`, `image1-widget2`, `world-lobby`, `placement-3` …
    public var id: String
    /// What the node stands for.
    public var kind: Kind
    /// The id of the node it hangs from (a widget's target or parent widget, a placement's anchor).
    public var parent: String?
    /// The node's world pose.
    public var pose: Similarity
    /// For quads (targets and widgets): width and height in metres, in the node's local XY plane,
    /// centred on its origin, facing +Z.
    public var size: SIMD2<Double>?
    /// A target's image, or a placement's model.
    public var asset: String?
    /// An annotation's text.
    public var text: String?
    /// A widget's resolved anchor point.
    public var anchor: AnchorPoint?
}

/// The side of an annotation's marker quad in metres.
public let markerSize = 0.05

/// An environment laid out in 3D: every target, widget, placement and annotation with its world pose.
///
/// Targets without a tracked pose are laid out for viewing: images as posters on a wall 1.5 m up
/// (facing +z, 1 m apart), objects in a row 1.5 m in front of it, world anchors at their pose, geo
/// anchors in an east-up-south frame around the first one.
public struct SceneGraph: Sendable, Hashable {
    /// The nodes, targets first, then their widgets, placements and annotations.
    public var nodes: [SceneNode]

    /// Composes the scene of an environment.
    /// - Parameters:
    ///   - imageSize: the size of image targets whose spec gives no width and whose aspect is unknown.
    ///   - viewpoint: where a viewer stands, for `auto` widgets and object faces.
    ///   - imageAspects: width ÷ height of target images by URL, when their pictures are known.
    public init(
        _ environment: Environment, imageSize: SIMD2<Double>? = nil, imageAspects: [String: Double] = [:],
        viewpoint: Vec3? = nil
    ) {
        var nodes: [SceneNode] = []
        var x = 0.0
        for (index, image) in (environment.imageTrackingConfigurations ?? []).enumerated() {
            let size = Self.size(of: image, given: imageSize, aspect: imageAspects[image.imageURL])
            let poster = Similarity(
                rotation: Rotation(axis: Vec3(1, 0, 0), angle: .pi / 2), translation: Vec3(x + size.x / 2, 1.5, 0))
            x += size.x + 1
            let target = PlanarTarget(pose: poster, size: size)
            // The quad of an image lies in its plane: the target frame turned so its normal is the quad's +Z.
            let quadPose = poster.concatenating(Similarity(rotation: Rotation(axis: Vec3(1, 0, 0), angle: -.pi / 2)))
            let id = WidgetNaming.target("image", index: index)
            nodes.append(SceneNode(id: id, kind: .target, pose: quadPose, size: size, asset: image.imageURL))
            let widgets = image.relationships.map(\.widgetConfiguration)
            Self.append(
                WidgetPlacement.place(widgets, on: target, viewpoint: viewpoint), widgets, target: id, to: &nodes)
        }
        for (index, object) in (environment.objectTrackingConfigurations ?? []).enumerated() {
            let extent = object.extent.map { Vec3($0.x, $0.y, $0.z) } ?? Vec3(0.3, 0.3, 0.3)
            let center = object.center.map { Vec3($0.x, $0.y, $0.z) } ?? Vec3(0, extent.y / 2, 0)
            let target = ObjectTarget(
                pose: Similarity(translation: Vec3(Double(index) * 1.5, 0, 1.5)), center: center, extent: extent)
            let id = WidgetNaming.target("object", index: index)
            // An object is a box, not a quad: its node carries no size.
            nodes.append(
                SceneNode(
                    id: id, kind: .target, pose: target.pose.concatenating(Similarity(translation: center)),
                    asset: object.objectURL))
            let widgets = object.relationships.map(\.widgetConfiguration)
            Self.append(target.place(widgets, viewpoint: viewpoint), widgets, target: id, to: &nodes)
        }
        for anchor in environment.worldAnchors ?? [] {
            let pose = Similarity(
                rotation: anchor.rotation.map { Rotation(x: $0.x, y: $0.y, z: $0.z, w: $0.w) } ?? .identity,
                translation: Vec3(anchor.position.x, anchor.position.y, anchor.position.z))
            Self.appendAnchor(
                WidgetNaming.anchor("world", id: anchor.id), pose: pose, relationships: anchor.relationships,
                viewpoint: viewpoint, to: &nodes)
        }
        if let origin = environment.geoAnchors?.first {
            let frame = LocalTangentFrame(
                latitude: origin.latitude, longitude: origin.longitude, altitude: origin.altitude ?? 0)
            for anchor in environment.geoAnchors ?? [] {
                let pose = frame.pose(
                    latitude: anchor.latitude, longitude: anchor.longitude, altitude: anchor.altitude ?? 0,
                    heading: anchor.heading ?? 0)
                Self.appendAnchor(
                    WidgetNaming.anchor("geo", id: anchor.id), pose: pose, relationships: anchor.relationships,
                    viewpoint: viewpoint, to: &nodes)
            }
        }
        let anchors = Dictionary(nodes.map { ($0.id, $0.pose) }, uniquingKeysWith: { first, _ in first })
        for (index, placement) in (environment.placements ?? []).enumerated() {
            let parent = placement.anchor.map { Self.anchorNodeID($0, environment) }
            let local = Similarity(
                rotation: placement.rotation.map { Rotation(x: $0.x, y: $0.y, z: $0.z, w: $0.w) } ?? .identity,
                translation: Vec3(placement.position.x, placement.position.y, placement.position.z),
                scale: placement.scale ?? 1)
            let base = parent.flatMap { anchors[$0] } ?? .identity
            nodes.append(
                SceneNode(
                    id: "placement-\(placement.id ?? String(index + 1))", kind: .placement, parent: parent,
                    pose: base.concatenating(local), asset: placement.model))
        }
        for (index, annotation) in (environment.annotations ?? []).enumerated() {
            let parent = annotation.anchor.map { Self.anchorNodeID($0, environment) }
            let base = parent.flatMap { anchors[$0] } ?? .identity
            let position = base.apply(Vec3(annotation.position.x, annotation.position.y, annotation.position.z))
            // A marker: a 5 cm square facing +z at the annotated point.
            nodes.append(
                SceneNode(
                    id: "annotation-\(annotation.id ?? String(index + 1))", kind: .annotation, parent: parent,
                    pose: Similarity(translation: position), size: SIMD2(markerSize, markerSize), text: annotation.text)
            )
        }
        self.nodes = nodes
    }

    /// An image target's size: the spec's `physicalWidth` (else the given size's width, else 0.2 m) and
    /// the picture's aspect ratio (else the given size's, else square).
    private static func size(of image: ImageTrackingConfiguration, given: SIMD2<Double>?, aspect: Double?) -> SIMD2<
        Double
    > {
        PlanarTarget.imageSize(
            physicalWidth: image.physicalWidth ?? given?.x, aspectRatio: aspect ?? given.map { $0.x / $0.y })
    }

    /// The scene node id of an anchor referenced by id (a world or geo anchor).
    private static func anchorNodeID(_ id: String, _ environment: Environment) -> String {
        WidgetNaming.anchor((environment.geoAnchors ?? []).contains { $0.id == id } ? "geo" : "world", id: id)
    }

    /// A world or geo anchor: widgets on a 0.2 m square planar target at its pose.
    private static func appendAnchor(
        _ id: String, pose: Similarity, relationships: [Relationship]?, viewpoint: Vec3?, to nodes: inout [SceneNode]
    ) {
        nodes.append(SceneNode(id: id, kind: .target, pose: pose))
        // Anchors are points: widgets stand upright at them, facing the anchor's +z.
        let target = PlanarTarget(
            pose: pose.concatenating(Similarity(rotation: Rotation(axis: Vec3(1, 0, 0), angle: .pi / 2))),
            size: SIMD2(0, 0))
        let widgets = (relationships ?? []).map(\.widgetConfiguration)
        append(WidgetPlacement.place(widgets, on: target, viewpoint: viewpoint), widgets, target: id, to: &nodes)
    }

    private static func append(
        _ placed: [PlacedWidget], _ widgets: [WidgetConfiguration], target: String, to nodes: inout [SceneNode]
    ) {
        for (widget, configuration) in zip(placed, widgets) {
            let id = WidgetNaming.widget(of: target, index: widget.index)
            nodes.append(
                SceneNode(
                    id: id, kind: .widget, parent: target, pose: widget.pose, size: widget.size, anchor: widget.anchor))
            appendChildren(widget.children, configuration, parent: id, to: &nodes)
        }
    }

    private static func appendChildren(
        _ children: [PlacedWidget], _ parent: WidgetConfiguration, parent id: String, to nodes: inout [SceneNode]
    ) {
        for (child, configuration) in zip(children, parent.additionalWidgetConfiguration ?? []) {
            let childID = WidgetNaming.child(of: id, key: configuration.key)
            nodes.append(
                SceneNode(
                    id: childID, kind: .widget, parent: id, pose: child.pose, size: child.size, anchor: child.anchor))
            appendChildren(child.children, configuration.widgetConfiguration, parent: childID, to: &nodes)
        }
    }

    /// The documented JSON form: `{"nodes": [{"id", "kind", "parent", "transform": [16 numbers,
    /// column-major, world], "size": [w, h], "asset", "text", "anchor"}]}`, compact, keys sorted and
    /// numbers rounded to nanometres, so the same scene is the same text everywhere.
    /// - Throws: ``SpatialError`` `notFinite` when a pose or size is NaN or infinite (never written
    ///   as `nan` or `inf`, which no JSON reader accepts).
    public func json() throws(SpatialError) -> String {
        if let node = nodes.first(where: { !$0.isFinite }) {
            throw SpatialError(.notFinite, "node \(node.id) has a transform or size that is not a finite number")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(SceneDocument(nodes: nodes)), as: UTF8.self) + "\n"
        } catch {
            throw SpatialError(.notFinite, "the scene could not be written as JSON: \(error)")
        }
    }
}

/// The JSON shape of a scene: what ``SceneGraph/json()`` writes.
struct SceneDocument: Encodable {
    let nodes: [SceneNode]
}

extension SceneNode: Encodable {
    private enum CodingKeys: String, CodingKey {
        case id, kind, parent, transform, size, asset, text, anchor
    }

    /// Whether every number of the node is finite.
    package var isFinite: Bool {
        pose.matrix.columnMajor.allSatisfy(\.isFinite) && (size.map { $0.x.isFinite && $0.y.isFinite } ?? true)
    }

    /// Encodes the node as `{id, kind, parent, transform, …}`: the pose column-major, to the nanometre.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind.rawValue, forKey: .kind)
        try container.encode(parent, forKey: .parent)
        try container.encode(pose.matrix.columnMajor.map(Self.rounded), forKey: .transform)
        try container.encodeIfPresent(size.map { [Self.rounded($0.x), Self.rounded($0.y)] }, forKey: .size)
        try container.encodeIfPresent(asset, forKey: .asset)
        try container.encodeIfPresent(text, forKey: .text)
        try container.encodeIfPresent(anchor?.rawValue, forKey: .anchor)
    }

    /// The value to a nanometre, so that the same scene writes the same text on every machine.
    private static func rounded(_ value: Double) -> Double {
        // Beyond a million metres a nanometre is below a double's precision anyway.
        guard abs(value) < 1e6 else { return value }
        let rounded = (value * 1e9).rounded() / 1e9
        return rounded == 0 ? 0 : rounded
    }
}
