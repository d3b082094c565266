public import ARVisSpec
import ARVisSupport
import Foundation

/// A widget positioned in the world: its resolved anchor, the pose of its quad (centred on the origin
/// of its local XY plane, facing +Z, y up) and the quad's size in metres.
public struct PlacedWidget: Sendable, Hashable {
    /// The widget's index among its target's relationships (or its parent's children).
    public var index: Int
    /// The anchor point it was placed at (`auto` resolved).
    public var anchor: AnchorPoint
    /// The quad's pose in the world.
    public var pose: Similarity
    /// The visible content rectangle in metres.
    public var size: SIMD2<Double>
    /// Child widgets (`additionalWidgetConfiguration`), placed in this widget's plane.
    public var children: [PlacedWidget]
}

/// A planar target: its pose (x to the image's right, y out of its face, z towards its bottom edge,
/// as ARKit's image anchors) and its physical size.
public struct PlanarTarget: Sendable, Hashable {
    /// The target's pose in the world.
    public var pose: Similarity
    /// Width and height in metres.
    public var size: SIMD2<Double>

    /// Creates a target.
    public init(pose: Similarity = .identity, size: SIMD2<Double>) {
        self.pose = pose
        self.size = size
    }

    /// iARVis's nominal physical width for an image with none given.
    public static let nominalWidth = 0.2

    /// The size of an image target: its `physicalWidth` (else 0.2 m) and the height its pixel aspect
    /// ratio (width ÷ height) implies (square when unknown).
    public static func imageSize(physicalWidth: Double?, aspectRatio: Double?) -> SIMD2<Double> {
        let width = physicalWidth ?? nominalWidth
        let ratio = aspectRatio.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? 1
        return SIMD2(width, width / ratio)
    }
}

/// Places widgets around a planar target with iARVis's geometry, and resolves `auto` properly.
///
/// Explicit anchors follow iARVis exactly: the widget lies in the target's plane, edge to edge with
/// it, at `relativePosition + positionOffset` plus the side offset; `scale` metres per point; `cover`
/// takes the target's size; `alignedToTarget` matches the target's height (leading, trailing, centre)
/// or width (top, bottom — iARVis used the height there, a defect). `auto` widgets are placed
/// together: each goes to the side with room nearest the target (and, given a viewpoint, facing it),
/// pushed outwards until it overlaps neither the target nor any other widget.
public enum WidgetPlacement {
    /// The gap in metres between `auto` widgets and what they sit next to.
    public static let autoGap = 0.01

    /// The widgets of one target, in relationship order.
    public static func place(_ widgets: [WidgetConfiguration], on target: PlanarTarget, viewpoint: Vec3? = nil)
        -> [PlacedWidget]
    {
        var placed: [PlacedWidget?] = Array(repeating: nil, count: widgets.count)
        let autos = widgets.indices.filter { widgets[$0].relativeAnchorPoint == .auto }
        var occupied = Occupancy()
        occupied.insert(Occupancy.Rectangle(center: .zero, size: target.size))
        for (index, widget) in widgets.enumerated() where widget.relativeAnchorPoint != .auto {
            let result = explicit(widget, index: index, anchor: widget.relativeAnchorPoint, target: target)
            occupied.insert(Occupancy.Rectangle(center: planePosition(result.local), size: result.placed.size))
            placed[index] = result.placed
        }
        let autoOrder =
            autos
            .sorted { area(widgets[$0]) > area(widgets[$1]) || (area(widgets[$0]) == area(widgets[$1]) && $0 < $1) }
        for index in autoOrder {
            placed[index] = automatic(
                widgets[index], index: index, target: target, occupied: &occupied, viewpoint: viewpoint)
        }
        return placed.map { $0! }
    }

    // MARK: Sizes

    /// iARVis's plane side `P` and visible content rectangle `R` for a widget.
    static func contentSize(_ widget: WidgetConfiguration, anchor: AnchorPoint, target: SIMD2<Double>?) -> SIMD2<Double>
    {
        let size = widget.size ?? WidgetConfiguration.defaultSize
        let (w, h) = (max(size.width, 1e-9), max(size.height, 1e-9))
        let longest = max(w, h)
        if anchor == .cover, let target { return target }
        var side = w * (widget.scale ?? WidgetConfiguration.defaultScale)
        if widget.alignedToTarget == true, let target {
            switch anchor {
            case .top, .bottom: side = target.x / w * longest
            default: side = target.y / h * longest
            }
        }
        return SIMD2(side * w / longest, side * h / longest)
    }

    private static func area(_ widget: WidgetConfiguration) -> Double {
        let size = widget.size ?? WidgetConfiguration.defaultSize
        return size.width * size.height * pow(widget.scale ?? WidgetConfiguration.defaultScale, 2)
    }

    // MARK: Explicit anchors

    private static let inPlane = Rotation(axis: Vec3(1, 0, 0), angle: -.pi / 2)

    private static func offsets(_ widget: WidgetConfiguration) -> Vec3 {
        let position = widget.relativePosition
        let offset = widget.positionOffset ?? .zero
        return Vec3(position.x + offset.x, position.y + offset.y, position.z + offset.z)
    }

    /// The placed widget and its position in the target's frame.
    private static func explicit(_ widget: WidgetConfiguration, index: Int, anchor: AnchorPoint, target: PlanarTarget)
        -> (placed: PlacedWidget, local: Vec3)
    {
        let size = contentSize(widget, anchor: anchor, target: target.size)
        let half = (target.size + size) / 2
        let side: Vec3 =
            switch anchor {
            case .leading: Vec3(-half.x, 0, 0)
            case .trailing: Vec3(half.x, 0, 0)
            case .top: Vec3(0, 0, -half.y)
            case .bottom: Vec3(0, 0, half.y)
            default: .zero
            }
        let local = offsets(widget) + side
        return (finish(widget, index: index, anchor: anchor, local: local, size: size, target: target), local)
    }

    private static func finish(
        _ widget: WidgetConfiguration, index: Int, anchor: AnchorPoint, local: Vec3, size: SIMD2<Double>,
        target: PlanarTarget
    ) -> PlacedWidget {
        let pose = target.pose.concatenating(Similarity(rotation: inPlane, translation: local))
        return PlacedWidget(
            index: index, anchor: anchor, pose: pose, size: size, children: children(of: widget, pose: pose, size: size)
        )
    }

    /// A position in the target's frame as a point in its plane: x right, and image-plane "down" (z).
    private static func planePosition(_ local: Vec3) -> SIMD2<Double> { SIMD2(local.x, local.z) }

    // MARK: Automatic anchors

    private static func automatic(
        _ widget: WidgetConfiguration, index: Int, target: PlanarTarget, occupied: inout Occupancy, viewpoint: Vec3?
    ) -> PlacedWidget {
        let sides: [(AnchorPoint, SIMD2<Double>)] = [
            (.trailing, SIMD2(1, 0)), (.leading, SIMD2(-1, 0)), (.top, SIMD2(0, -1)), (.bottom, SIMD2(0, 1)),
        ]
        var best: (anchor: AnchorPoint, rectangle: Occupancy.Rectangle, score: Double)?
        let shift = planePosition(offsets(widget))
        for (anchor, direction) in sides {
            let size = contentSize(widget, anchor: anchor, target: target.size)
            // Start touching the target (plus the gap), then step outwards past whatever is in the way.
            var distance =
                (abs(direction.x) * (target.size.x + size.x) + abs(direction.y) * (target.size.y + size.y)) / 2
                + autoGap
            distance = occupied.firstFreeDistance(
                from: distance, along: direction, through: shift, size: size, gap: autoGap)
            let rectangle = Occupancy.Rectangle(center: direction * distance + shift, size: size)
            var score = distance
            if let viewpoint {
                // Prefer sides that turn towards the viewer: their outward direction in the world.
                let outward = target.pose.rotation.apply(Vec3(direction.x, 0, direction.y))
                let toViewer = (viewpoint - target.pose.translation).normalized
                score -= 0.5 * max(target.size.x, target.size.y) * outward.dot(toViewer)
            }
            if score < best?.score ?? .infinity { best = (anchor, rectangle, score) }
        }
        let chosen = best!
        occupied.insert(chosen.rectangle)
        let local = Vec3(chosen.rectangle.center.x, offsets(widget).y, chosen.rectangle.center.y)
        return finish(
            widget, index: index, anchor: chosen.anchor, local: local, size: chosen.rectangle.size, target: target)
    }

    // MARK: Child widgets

    /// Child widgets in the parent's plane, edge to edge with it (top +y, bottom −y, leading −x,
    /// trailing +x); `auto` takes the first side no sibling declared, as iARVis does.
    private static func children(of widget: WidgetConfiguration, pose: Similarity, size: SIMD2<Double>)
        -> [PlacedWidget]
    {
        let children = widget.additionalWidgetConfiguration ?? []
        let declared = Set(children.map(\.widgetConfiguration.relativeAnchorPoint))
        let order: [AnchorPoint] = [.center, .leading, .trailing, .top, .bottom, .cover, .auto]
        return children.enumerated().map { index, child in
            let configuration = child.widgetConfiguration
            var anchor = configuration.relativeAnchorPoint
            if anchor == .auto { anchor = order.first { !declared.contains($0) } ?? .auto }
            // Children keep the square `size.width × scale` plane: no cover or alignedToTarget sizing.
            let childSize = contentSize(configuration, anchor: .center, target: nil)
            let half = (size + childSize) / 2
            let side: Vec3 =
                switch anchor {
                case .top: Vec3(0, half.y, 0)
                case .bottom: Vec3(0, -half.y, 0)
                case .leading: Vec3(-half.x, 0, 0)
                case .trailing: Vec3(half.x, 0, 0)
                default: .zero
                }
            let childPose = pose.concatenating(Similarity(translation: offsets(configuration) + side))
            return PlacedWidget(
                index: index, anchor: anchor, pose: childPose, size: childSize,
                children: Self.children(of: configuration, pose: childPose, size: childSize))
        }
    }
}
