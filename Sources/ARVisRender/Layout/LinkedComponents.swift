import ARVisGraphics
import ARVisSpec
import ARVisSupport

/// The components a widget's `iARVis://openComponent` links open, each drawn once (by the same
/// renderer, in the child widget the link describes) as an overlay of the widget's drawing. Chains
/// are followed — a component may link to another — up to ``maximumDepth`` links deep and
/// ``maximumCount`` components per widget; a link to a component already met reuses its overlay.
///
/// Links only register components while the widget is drawn; the components are drawn afterwards,
/// one after another (``RenderContext/drawLinked()``), so a chain never nests one drawing inside
/// another on the stack.
final class LinkedComponents {
    /// The longest chain of links followed.
    static let maximumDepth = 8
    /// The most components one widget opens.
    static let maximumCount = 32

    /// A component waiting to be drawn, or drawn.
    private struct Entry {
        var id: String
        /// The child widget's name in AR, after its parent's id (``WidgetNaming/child(of:key:)``).
        var child: String
        var widget: WidgetConfiguration
        var depth: Int
        var drawing: Drawing?
    }

    private var identifiers: [String: String] = [:]
    private var entries: [Entry] = []

    /// The overlay id of the component `open` names (registered to be drawn if new), or `nil` when
    /// it does not read, the chain is too deep or there are too many.
    func identifier(for open: IARVisLink.OpenComponent, depth: Int, resources: [String: RenderOptions.Resource])
        -> String?
    {
        let key = open.source.key
        if let known = identifiers[key] { return known }
        guard depth < Self.maximumDepth, entries.count < Self.maximumCount,
            let component = open.component(fetched: { resources[$0]?.data })
        else { return nil }
        let identifier = "arvis-open-\(entries.count + 1)"
        identifiers[key] = identifier
        entries.append(
            Entry(
                id: identifier, child: String(WidgetNaming.child(of: "", key: key).dropFirst()),
                widget: open.widget(showing: component), depth: depth + 1))
        return identifier
    }

    /// Draws every registered component with `draw` (which may register more), in order, and
    /// returns the overlays drawn; one `draw` refuses (`nil`: over the render limits) is left out.
    func drawAll(_ draw: (WidgetConfiguration, String, Int) -> Drawing?) -> [Overlay] {
        var index = 0
        while index < entries.count {
            let entry = entries[index]
            entries[index].drawing = draw(entry.widget, entry.id, entry.depth)
            index += 1
        }
        return entries.compactMap { entry in
            entry.drawing.map { Overlay(id: entry.id, drawing: $0, child: entry.child) }
        }
    }
}

extension RenderContext {
    /// Where a link of the drawing goes, or `nil` to draw it as text: a URL ``LinkPolicy`` allows;
    /// for `iARVis://link?href=` its page under the same rule; for `iARVis://openComponent` the
    /// overlay that shows its component (`#arvis-open-N`). `openVisConfig` loads a whole environment
    /// in iARVis and is ignored inside widgets, as iARVis ignores it there.
    func linkTarget(_ url: String?) -> String? {
        guard let url else { return nil }
        guard IARVisLink.isIARVis(url) else { return LinkPolicy.navigable(url) }
        switch try? IARVisLink.parse(url) {
        case .link(let href)?: return LinkPolicy.navigable(href)
        case .openComponent(let open)?:
            return linked.identifier(for: open, depth: linkDepth, resources: options.resources).map { "#" + $0 }
        default: return nil
        }
    }

    /// The overlays of the components this drawing's links (and theirs) open, drawn.
    func drawLinked() -> [Overlay] {
        linked.drawAll { widget, name, depth in
            guard (try? options.limits.check(widget.component, widget: name)) != nil else { return nil }
            let context = RenderContext(fonts: fonts, options: options, linked: linked, linkDepth: depth)
            let node = ComponentLayout.node(for: widget.component)
            return WidgetFrame(widget).drawing(
                of: node, title: name, summary: AccessibleSummary.text(for: widget.component), context: context)
        }
    }
}
