import Foundation

extension Component {
    /// The links this component and those inside it make, in order: Markdown links of texts and
    /// `onTap` actions (chart clicks open pages, never widgets, and are left out).
    public var links: [String] {
        var found: [String] = []
        var pending = [self]
        while let next = pending.popLast() {
            if case .text(let text) = next { found += InlineMarkdown.links(in: text.content) }
            for case .onTap(.openURL(let url)) in next.modifiers { found.append(url) }
            pending += next.children.reversed()  // the first child next: document order
        }
        return found
    }
}

extension WidgetConfiguration {
    /// This widget with the child widgets its `iARVis://openComponent` links open, as iARVis adds
    /// them when "Open in AR" is chosen: keyed by the link's JSON or URL, placed by its anchor,
    /// relative position and size; and theirs in turn, up to `depth` links deep. A key already
    /// open is not opened again; `fetched` gives the bytes of `url=` components (`nil`: left out).
    public func openingLinks(depth: Int = 8, fetched: (String) -> [UInt8]?) -> WidgetConfiguration {
        guard depth > 0 else { return self }
        var widget = self
        var children = widget.additionalWidgetConfiguration ?? []
        for link in component.links {
            guard case .openComponent(let open)? = try? IARVisLink.parse(link),
                !children.contains(where: { $0.key == open.source.key }),
                let component = open.component(fetched: fetched)
            else { continue }
            let child = open.widget(showing: component).openingLinks(depth: depth - 1, fetched: fetched)
            children.append(AdditionalWidgetConfiguration(key: open.source.key, widgetConfiguration: child))
        }
        widget.additionalWidgetConfiguration = children.isEmpty ? nil : children
        return widget
    }
}

extension Environment {
    /// The URLs of the components its widgets' `openComponent?url=` links name (for fetching
    /// before ``openingLinks(depth:fetched:)``; links inside fetched components are not listed).
    public var linkedComponentURLs: [String] {
        var urls: [String] = []
        for url in widgets.flatMap({ $0.component.links }).compactMap(IARVisLink.fetchedComponentURL)
        where !urls.contains(url) { urls.append(url) }
        return urls
    }

    /// Every relationship's widget, of every kind of target.
    private var widgets: [WidgetConfiguration] {
        let relationships =
            (imageTrackingConfigurations ?? []).flatMap(\.relationships)
            + (objectTrackingConfigurations ?? []).flatMap(\.relationships)
            + (worldAnchors ?? []).flatMap { $0.relationships ?? [] }
            + (geoAnchors ?? []).flatMap { $0.relationships ?? [] }
        return relationships.map(\.widgetConfiguration)
    }

    /// Every widget with the child widgets its links open (``WidgetConfiguration/openingLinks(depth:fetched:)``).
    public func openingLinks(depth: Int = 8, fetched: (String) -> [UInt8]?) -> Environment {
        func open(_ relationships: [Relationship]) -> [Relationship] {
            relationships.map { Relationship($0.widgetConfiguration.openingLinks(depth: depth, fetched: fetched)) }
        }
        var environment = self
        environment.imageTrackingConfigurations = imageTrackingConfigurations?.map {
            var target = $0
            target.relationships = open(target.relationships)
            return target
        }
        environment.objectTrackingConfigurations = objectTrackingConfigurations?.map {
            var target = $0
            target.relationships = open(target.relationships)
            return target
        }
        environment.worldAnchors = worldAnchors?.map {
            var anchor = $0
            anchor.relationships = anchor.relationships.map(open)
            return anchor
        }
        environment.geoAnchors = geoAnchors?.map {
            var anchor = $0
            anchor.relationships = anchor.relationships.map(open)
            return anchor
        }
        return environment
    }
}
