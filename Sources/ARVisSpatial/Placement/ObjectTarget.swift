public import ARVisSpec

/// An object target: a bounding box (its centre and extent in the object anchor's frame, y up) in
/// the world. Widgets attach to one of its faces, as DESIGN.md defines `center0 … bottom2`.
public struct ObjectTarget: Sendable, Hashable {
    /// The object anchor's pose in the world.
    public var pose: Similarity
    /// The box's centre in the anchor's frame.
    public var center: Vec3
    /// The box's size along x, y and z in metres.
    public var extent: Vec3

    /// Creates an object target.
    public init(pose: Similarity = .identity, center: Vec3 = .zero, extent: Vec3) {
        self.pose = pose
        self.center = center
        self.extent = extent
    }

    /// Face `face` (0 front +z, 1 right +x, 2 top +y) as a planar target: x to the face's right, y out
    /// of it, z towards its bottom edge, as seen from outside.
    public func face(_ face: Int) -> PlanarTarget {
        let rotation: Rotation
        let size: SIMD2<Double>
        let normal: Vec3
        switch face {
        case 1:
            // Seen from +x: right is −z, down is −y.
            rotation = Rotation(axis: Vec3(0, 1, 0), angle: .pi / 2).concatenating(
                Rotation(axis: Vec3(1, 0, 0), angle: .pi / 2))
            size = SIMD2(extent.z, extent.y)
            normal = Vec3(1, 0, 0)
        case 2:
            // Seen from above: right is +x, down (towards the viewer's feet) is +z.
            rotation = .identity
            size = SIMD2(extent.x, extent.z)
            normal = Vec3(0, 1, 0)
        default:
            // Seen from the front: right is +x, down is −y.
            rotation = Rotation(axis: Vec3(1, 0, 0), angle: .pi / 2)
            size = SIMD2(extent.x, extent.y)
            normal = Vec3(0, 0, 1)
        }
        let faceCenter = center + normal * (abs(normal.dot(extent)) / 2)
        return PlanarTarget(
            pose: pose.concatenating(Similarity(rotation: rotation, translation: faceCenter)), size: size)
    }

    /// The face a widget uses: the anchor's digit, else the face turned most towards `viewpoint`
    /// (the front face without one).
    public func face(for anchor: AnchorPoint, viewpoint: Vec3?) -> Int {
        if let face = anchor.objectFace { return face }
        guard let viewpoint else { return 0 }
        return (0..<3).max { facing($0, viewpoint) < facing($1, viewpoint) } ?? 0
    }

    private func facing(_ face: Int, _ viewpoint: Vec3) -> Double {
        let plane = self.face(face)
        return plane.pose.rotation.apply(Vec3(0, 1, 0)).dot((viewpoint - plane.pose.translation).normalized)
    }

    /// The anchor point on a face: `center0 … bottom2` become `center … bottom`.
    public static func planarAnchor(_ anchor: AnchorPoint) -> AnchorPoint {
        guard anchor.objectFace != nil else { return anchor }
        return AnchorPoint(rawValue: String(anchor.rawValue.dropLast())) ?? .center
    }

    /// The widgets of an object target, each on its face with iARVis's planar geometry.
    public func place(_ widgets: [WidgetConfiguration], viewpoint: Vec3? = nil) -> [PlacedWidget] {
        var placed: [PlacedWidget?] = Array(repeating: nil, count: widgets.count)
        let byFace = Dictionary(grouping: widgets.indices) {
            face(for: widgets[$0].relativeAnchorPoint, viewpoint: viewpoint)
        }
        for (face, indices) in byFace {
            let planar = indices.map { index -> WidgetConfiguration in
                var widget = widgets[index]
                widget.relativeAnchorPoint = Self.planarAnchor(widget.relativeAnchorPoint)
                return widget
            }
            for (position, result) in WidgetPlacement.place(planar, on: self.face(face), viewpoint: viewpoint)
                .enumerated()
            {
                var widget = result
                widget.index = indices[position]
                placed[indices[position]] = widget
            }
        }
        return placed.map { $0! }
    }
}
