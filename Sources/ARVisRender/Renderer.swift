public import ARVisGraphics
public import ARVisSpec
public import ARVisSupport

/// Turns specs into drawings: every widget of an environment, a component or a chart, laid out as an
/// iPhone shows it, ready for ``SVGWriter``, ``PNGWriter`` or ``HTMLWriter``.
///
/// ```swift
/// let document = try SpecReader.read(json: bytes).document
/// let renderer = try Renderer()
/// for widget in try renderer.render(document) {
///     print(widget.name, SVGWriter().write(widget.drawing).count)
/// }
/// ```
public struct Renderer: Sendable {
    /// The fonts text is measured and drawn with.
    public let fonts: FontLibrary
    /// Rendering choices.
    public var options: RenderOptions

    /// The width of the card a standalone component or chart is drawn in (the default widget width).
    public static let standaloneWidth = WidgetConfiguration.defaultSize.width

    /// Creates a renderer with the standard fonts.
    /// - Throws: ``GraphicsError`` when the DejaVu fonts are not installed.
    public init(options: RenderOptions = RenderOptions(), fonts: FontLibrary? = nil) throws {
        self.fonts = try fonts ?? FontLibrary.standard()
        self.options = options
    }

    /// Every widget of a document, in order: for an environment each relationship's widget (and its
    /// child widgets); for a component or chart, one card.
    /// - Throws: ``RenderError`` when a widget would draw more than ``RenderOptions/limits`` allow.
    public func render(_ document: SpecDocument) throws(RenderError) -> [RenderedWidget] {
        switch document {
        case .environment(let environment):
            var widgets: [RenderedWidget] = []
            for entry in WidgetCatalog.widgets(in: environment) {
                widgets.append(try render(entry.widget, name: entry.name))
            }
            return widgets
        case .component(let component):
            return [try render(component, name: "component")]
        case .chart(let chart):
            return [try render(.chart(chart), name: "chart")]
        }
    }

    /// One widget in its frame (size, padding, background, scroll).
    /// - Throws: ``RenderError`` when the widget would draw more than ``RenderOptions/limits`` allow.
    public func render(_ widget: WidgetConfiguration, name: String) throws(RenderError) -> RenderedWidget {
        try options.limits.check(widget.component, widget: name)
        let context = RenderContext(fonts: fonts, options: options)
        let node = ComponentLayout.node(for: widget.component)
        let summary = AccessibleSummary.text(for: widget.component)
        var drawing = WidgetFrame(widget).drawing(of: node, title: name, summary: summary, context: context)
        drawing.overlays = context.drawLinked()
        return RenderedWidget(name: name, drawing: drawing)
    }

    /// A component alone, on a card of the default widget width and the content's height.
    /// - Throws: ``RenderError`` when the component would draw more than ``RenderOptions/limits`` allow.
    public func render(_ component: Component, name: String) throws(RenderError) -> RenderedWidget {
        try options.limits.check(component, widget: name)
        let context = RenderContext(fonts: fonts, options: options)
        let node = ComponentLayout.node(for: component)
        let frame = WidgetFrame(standaloneWidth: Self.standaloneWidth)
        let summary = AccessibleSummary.text(for: component)
        var drawing = frame.drawing(of: node, title: name, summary: summary, context: context)
        drawing.overlays = context.drawLinked()
        return RenderedWidget(name: name, drawing: drawing)
    }

    /// The URLs of images and video posters a document shows, and of components its texts' links
    /// open, for downloading into ``RenderOptions/resources``.
    public static func resourceURLs(in document: SpecDocument) -> [String] {
        var urls: [String] = []
        func visit(_ component: Component) {
            switch component {
            case .text(let text):
                // The components `openComponent?url=` links open, fetched like pictures (with --fetch).
                urls += InlineMarkdown.links(in: text.content).compactMap(IARVisLink.fetchedComponentURL)
            case .image(let image): urls.append(image.url)
            case .video(let video): if let id = VideoNode.youTubeID(video.url) { urls.append(VideoNode.posterURL(id)) }
            case .chart(let chart):
                for annotation in chart.annotations ?? [] { visit(annotation.content) }
                for mark in chart.components {
                    for annotation in mark.config.annotations ?? [] { visit(annotation.content) }
                    for conditional in mark.config.conditionalAnnotations ?? [] {
                        visit(conditional.annotation.content)
                    }
                }
            default: break
            }
            component.children.forEach(visit)
        }
        switch document {
        case .environment(let environment):
            for entry in WidgetCatalog.widgets(in: environment) { visit(entry.widget.component) }
        case .component(let component): visit(component)
        case .chart(let chart): visit(.chart(chart))
        }
        var seen = Set<String>()
        return urls.filter { seen.insert($0).inserted }
    }
}

/// A rendered widget: a name for files and galleries, and its drawing.
public struct RenderedWidget: Sendable, Hashable {
    /// A file-name-safe name such as `image1-widget2`.
    public var name: String
    /// The picture.
    public var drawing: Drawing
}

/// Lists an environment's widgets with stable names (``WidgetNaming``, shared with scene ids).
package enum WidgetCatalog {
    package static func widgets(in environment: Environment) -> [(name: String, widget: WidgetConfiguration)] {
        var result: [(String, WidgetConfiguration)] = []
        func add(_ target: String, _ relationships: [Relationship]?) {
            for (index, relationship) in (relationships ?? []).enumerated() {
                addWidget(WidgetNaming.widget(of: target, index: index), relationship.widgetConfiguration)
            }
        }
        func addWidget(_ name: String, _ widget: WidgetConfiguration) {
            result.append((name, widget))
            for child in widget.additionalWidgetConfiguration ?? [] {
                addWidget(WidgetNaming.child(of: name, key: child.key), child.widgetConfiguration)
            }
        }
        for (index, target) in (environment.imageTrackingConfigurations ?? []).enumerated() {
            add(WidgetNaming.target("image", index: index), target.relationships)
        }
        for (index, target) in (environment.objectTrackingConfigurations ?? []).enumerated() {
            add(WidgetNaming.target("object", index: index), target.relationships)
        }
        for anchor in environment.worldAnchors ?? [] {
            add(WidgetNaming.anchor("world", id: anchor.id), anchor.relationships)
        }
        for anchor in environment.geoAnchors ?? [] {
            add(WidgetNaming.anchor("geo", id: anchor.id), anchor.relationships)
        }
        return result
    }
}
