import ARVisSupport
import Foundation

extension IARVisLink.OpenComponent {
    /// The child widget iARVis makes of this link when "Open in AR" is chosen: `component` with the
    /// link's anchor, relative position, size and scrolling, every other key at its default.
    public func widget(showing component: Component) -> WidgetConfiguration {
        // The reader gives three numbers and two; a value built by hand with other counts is ignored.
        let position =
            relativePosition.count == 3 ? Vec3(relativePosition[0], relativePosition[1], relativePosition[2]) : .zero
        var widget = WidgetConfiguration(component: component, relativeAnchorPoint: anchor, relativePosition: position)
        widget.size = size.flatMap { $0.count == 2 ? Size(width: $0[0], height: $0[1]) : nil }
        widget.isScrollEnabled = isScrollEnabled
        return widget
    }

    /// The component this link opens: its embedded JSON, or for `url=` the bytes `fetched` gives
    /// for that URL (`nil` when not fetched); `nil` when it does not read as a component.
    public func component(fetched: (String) -> [UInt8]?) -> Component? {
        let bytes: [UInt8]
        switch source {
        case .json(let json): bytes = Array(json.utf8)
        case .url(let url):
            guard let data = fetched(url) else { return nil }
            bytes = data
        }
        guard
            case .component(let component)? = SpecReader.read(json: Data(bytes), options: ReadOptions(kind: .component))
                .document
        else { return nil }
        return component
    }
}

extension IARVisLink {
    /// The URL of the component `link` opens when it is an `openComponent?url=` link (what a safe
    /// loader fetches before the component can be drawn); `nil` for any other link.
    public static func fetchedComponentURL(_ link: String) -> String? {
        guard case .openComponent(let open)? = try? parse(link), case .url(let url) = open.source else { return nil }
        return url
    }
}
