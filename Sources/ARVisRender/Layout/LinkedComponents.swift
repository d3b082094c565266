import ARVisGraphics
import ARVisSpec

/// The components a widget's `iARVis://openComponent` links open, each drawn once (by the same
/// renderer, in the child widget the link describes) as an overlay of the widget's drawing. Chains
/// are followed — a component may link to another — up to ``maximumDepth`` links deep and
/// ``maximumCount`` components per widget; a link back to a component already drawn reuses it.
final class LinkedComponents {
    /// The longest chain of links followed.
    static let maximumDepth = 8
    /// The most components one widget opens.
    static let maximumCount = 32

    private(set) var overlays: [Overlay] = []
    private var identifiers: [String: String] = [:]

    /// The overlay id of the component `open` names, drawing it first if needed (with `draw`);
    /// `nil` when it does not read, the chain is too deep, there are too many, or it cannot be drawn.
    func identifier(for open: IARVisLink.OpenComponent, depth: Int, resources: [String: RenderOptions.Resource],
                    draw: (WidgetConfiguration, String, Int) -> Drawing?) -> String? {
        let key = open.source.key
        if let known = identifiers[key] { return known }
        guard depth < Self.maximumDepth, identifiers.count < Self.maximumCount,
              let component = open.component(fetched: { resources[$0]?.data }) else { return nil }
        let identifier = "arvis-open-\(identifiers.count + 1)"
        identifiers[key] = identifier
        guard let drawing = draw(open.widget(showing: component), identifier, depth + 1) else {
            identifiers[key] = nil
            return nil
        }
        overlays.append(Overlay(id: identifier, drawing: drawing))
        return identifier
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
            let identifier = linked.identifier(for: open, depth: linkDepth, resources: options.resources) { widget, name, depth in
                guard (try? options.limits.check(widget.component, widget: name)) != nil else { return nil }
                return drawChild(widget, name: name, depth: depth)
            }
            return identifier.map { "#" + $0 }
        default: return nil
        }
    }

    private func drawChild(_ widget: WidgetConfiguration, name: String, depth: Int) -> Drawing {
        let context = RenderContext(fonts: fonts, options: options, linked: linked, linkDepth: depth)
        let node = ComponentLayout.node(for: widget.component)
        return WidgetFrame(widget).drawing(of: node, title: name, summary: AccessibleSummary.text(for: widget.component), context: context)
    }
}
