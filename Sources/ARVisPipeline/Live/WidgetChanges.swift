import ARVisRender
import ARVisSpatial
public import ARVisSpec

/// What a device must rebuild when a spec changes: each widget's component and placement, by the
/// widget id that `arvis render` and `arvis scene` use (`image1-widget2`, `world-lobby-widget1-detail`).
///
/// A placement is compared relative to what the widget hangs from (its target, or its parent
/// widget), as a device anchors it: moving one image target's poster in the preview layout changes
/// none of the other targets' widgets.
///
/// ```swift
/// let before = WidgetDigest(old), after = WidgetDigest(new)
/// let (changed, removed) = after.changes(since: before)
/// ```
public struct WidgetDigest: Sendable, Hashable {
    /// What identifies one widget's look and place.
    struct Fingerprint: Sendable, Hashable {
        /// The widget without its child widgets (each child is a widget of its own).
        var widget: WidgetConfiguration?
        /// The component of a standalone component or chart document.
        var document: SpecDocument?
        /// The pose relative to the parent node (nanometre-rounded, column-major), the size and the anchor.
        var placement: [Double]
        var anchor: AnchorPoint?
    }

    /// The datasets a document's charts follow, by name, with the widgets showing each.
    public struct DatasetUse: Sendable, Hashable {
        /// The dataset and the widest window any of its charts keeps.
        public var link: DatasetLink
        /// The ids of the widgets whose charts follow it, in document order.
        public var widgets: [String]
    }

    /// Widget ids in document order.
    public let ids: [String]
    /// The datasets the widgets follow, by name.
    public let datasets: [String: DatasetUse]
    private let fingerprints: [String: Fingerprint]

    /// The digest of a document's widgets.
    public init(_ document: SpecDocument) {
        switch document {
        case .environment(let environment):
            let graph = SceneGraph(environment)
            let poses = Dictionary(graph.nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var ids: [String] = []
            var fingerprints: [String: Fingerprint] = [:]
            for (name, configuration) in WidgetCatalog.widgets(in: environment) {
                var widget = configuration
                widget.additionalWidgetConfiguration = nil
                let node = poses[name]
                ids.append(name)
                fingerprints[name] = Fingerprint(
                    widget: widget, document: nil,
                    placement: node.map { Self.placement($0, parent: $0.parent.flatMap { poses[$0] }) } ?? [],
                    anchor: node?.anchor)
            }
            self.ids = ids
            self.fingerprints = fingerprints
            datasets = Self.datasets(WidgetCatalog.widgets(in: environment).map { ($0.name, $0.widget.component) })
        case .component(let component):
            ids = ["component"]
            fingerprints = ["component": Fingerprint(widget: nil, document: document, placement: [], anchor: nil)]
            datasets = Self.datasets([("component", component)])
        case .chart(let chart):
            ids = ["chart"]
            fingerprints = ["chart": Fingerprint(widget: nil, document: document, placement: [], anchor: nil)]
            datasets = Self.datasets([("chart", .chart(chart))])
        }
    }

    /// The datasets followed by the charts of `widgets` (in their components, children and chart annotations).
    private static func datasets(_ widgets: [(name: String, component: Component)]) -> [String: DatasetUse] {
        var uses: [String: DatasetUse] = [:]
        for (widget, component) in widgets {
            for link in component.datasetLinks.values {
                guard var use = uses[link.name] else {
                    uses[link.name] = DatasetUse(link: link, widgets: [widget])
                    continue
                }
                use.link = use.link.widened(by: link)
                use.widgets.append(widget)
                uses[link.name] = use
            }
        }
        return uses
    }

    /// The widgets that differ from `old` (added, or changed in component or placement) in document
    /// order, and those `old` had that are gone. Without `old`, every widget is changed.
    public func changes(since old: WidgetDigest?) -> (changed: [String], removed: [String]) {
        guard let old else { return (ids, []) }
        let changed = ids.filter { old.fingerprints[$0] != fingerprints[$0] }
        let removed = old.ids.filter { fingerprints[$0] == nil }
        return (changed, removed)
    }

    /// The widgets whose picture differs from `old`'s (added, or changed in component, size or
    /// style — not only moved), in document order: what a device must draw again. Without `old`,
    /// every widget.
    public func redrawn(since old: WidgetDigest?) -> [String] {
        guard let old else { return ids }
        return ids.filter { id in
            guard let before = old.fingerprints[id], let after = fingerprints[id] else { return true }
            return before.widget.map(Self.look) != after.widget.map(Self.look) || before.document != after.document
        }
    }

    /// What a widget's picture depends on: the widget without where it stands or how large its
    /// quad is in the room (anchor, position, offset, alignment, scale).
    private static func look(_ widget: WidgetConfiguration) -> WidgetConfiguration {
        var look = widget
        look.relativeAnchorPoint = .center
        look.relativePosition = .zero
        look.positionOffset = nil
        look.alignedToTarget = nil
        look.scale = nil
        return look
    }

    /// A node's pose relative to its parent's, with its size, rounded to nanometres so the same
    /// placement computed through a different layout compares equal.
    private static func placement(_ node: SceneNode, parent: SceneNode?) -> [Double] {
        let relative = parent.map { $0.pose.inverse.concatenating(node.pose) } ?? node.pose
        let numbers = relative.matrix.columnMajor + [node.size?.x ?? 0, node.size?.y ?? 0]
        return numbers.map { ($0 * 1e9).rounded() / 1e9 }
    }
}
