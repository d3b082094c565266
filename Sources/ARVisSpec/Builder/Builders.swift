public import ARVisSupport

/// Builds a list of components from statements, as SwiftUI builds views.
///
/// ```swift
/// let card = Component.vStack(alignment: .leading, spacing: 8) {
///     Component.text("**Christ's Entry into Brussels**", font: FontStyle(size: 24, weight: .bold))
///     Component.text("James Ensor, 1888")
///     if showImage { Component.image("https://example.org/ensor.jpg") }
/// }
/// ```
public typealias ComponentBuilder = ListBuilder<Component>

/// Builds a list of values of one type (widgets, targets, marks, data sources) from statements.
@resultBuilder
public enum ListBuilder<Element> {
    /// One value.
    public static func buildExpression(_ element: Element) -> [Element] { [element] }
    /// Several values at once, such as a mapped array.
    public static func buildExpression(_ elements: [Element]) -> [Element] { elements }
    /// The statements of a block, in order.
    public static func buildBlock(_ parts: [Element]...) -> [Element] { parts.flatMap { $0 } }
    /// An `if` without `else`: its values, or none.
    public static func buildOptional(_ part: [Element]?) -> [Element] { part ?? [] }
    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first part: [Element]) -> [Element] { part }
    /// The second branch of an `if`/`else` or `switch`.
    public static func buildEither(second part: [Element]) -> [Element] { part }
    /// The values of a `for` loop, in order.
    public static func buildArray(_ parts: [[Element]]) -> [Element] { parts.flatMap { $0 } }
}

extension Component {
    /// A text component.
    public static func text(
        _ content: String, font: FontStyle? = nil, alignment: TextAlignment? = nil, modifiers: [Modifier]? = nil
    ) -> Component {
        .text(Text(content, multilineTextAlignment: alignment, fontStyle: font, modifiers: modifiers))
    }

    /// An image component.
    public static func image(
        _ url: String, contentMode: ContentMode = .fit, width: Double? = nil, height: Double? = nil,
        modifiers: [Modifier]? = nil
    ) -> Component {
        .image(Image(url: url, contentMode: contentMode, width: width, height: height, modifiers: modifiers))
    }

    /// A vertical stack of the built components.
    public static func vStack(
        alignment: HorizontalAlignment? = nil, spacing: Double? = nil, modifiers: [Modifier]? = nil,
        @ComponentBuilder _ elements: () -> [Component]
    ) -> Component {
        .vStack(VStack(elements: elements(), alignment: alignment, spacing: spacing, modifiers: modifiers))
    }

    /// A horizontal stack of the built components.
    public static func hStack(
        alignment: VerticalAlignment? = nil, spacing: Double? = nil, modifiers: [Modifier]? = nil,
        @ComponentBuilder _ elements: () -> [Component]
    ) -> Component {
        .hStack(HStack(elements: elements(), alignment: alignment, spacing: spacing, modifiers: modifiers))
    }

    /// A grid row of the built components.
    public static func gridRow(@ComponentBuilder _ elements: () -> [Component]) -> Component {
        .gridRow(GridRow(rowElements: elements()))
    }

    /// A grid of the built rows.
    public static func grid(@ComponentBuilder _ rows: () -> [Component]) -> Component {
        .grid(Grid(rows: rows()))
    }

    /// A chart component.
    public static func chart(
        @ListBuilder<DataSource> data: () -> [DataSource], @ListBuilder<ChartComponent> marks: () -> [ChartComponent]
    ) -> Component {
        .chart(Chart(dataSources: data(), components: marks()))
    }
}

extension Environment {
    /// An environment of image targets.
    public init(
        version: String? = nil, @ListBuilder<ImageTrackingConfiguration> images: () -> [ImageTrackingConfiguration]
    ) {
        self.init(imageTrackingConfigurations: images())
        self.version = version
    }
}

extension ImageTrackingConfiguration {
    /// An image target with the built widgets.
    public init(
        _ imageURL: String, physicalWidth: Double? = nil,
        @ListBuilder<WidgetConfiguration> widgets: () -> [WidgetConfiguration]
    ) {
        self.init(imageURL: imageURL, physicalWidth: physicalWidth, relationships: widgets().map(Relationship.init))
    }
}

extension WidgetConfiguration {
    /// A widget showing `content`, attached at `anchor`.
    public init(
        _ anchor: AnchorPoint, at position: Vec3 = .zero, size: Size? = nil, scale: Double? = nil,
        content: () -> Component
    ) {
        self.init(component: content(), relativeAnchorPoint: anchor, relativePosition: position)
        self.size = size
        self.scale = scale
    }
}

extension Chart {
    /// A chart from the built data sources and marks.
    public init(
        @ListBuilder<DataSource> data: () -> [DataSource], @ListBuilder<ChartComponent> marks: () -> [ChartComponent]
    ) {
        self.init(dataSources: data(), components: marks())
    }
}

extension ChartComponent {
    /// A mark plotting `x` against `y` from the data source `dataKey`.
    public static func mark(
        _ type: MarkType, x: FieldDescriptor? = nil, y: FieldDescriptor? = nil, dataKey: String? = nil,
        configure: (inout MarkConfiguration) -> Void = { _ in }
    ) -> ChartComponent {
        var config = MarkConfiguration(dataKey: dataKey)
        config.x = x
        config.y = y
        configure(&config)
        return ChartComponent(type: type, config: config)
    }
}

extension FieldDescriptor: ExpressibleByStringLiteral {
    /// A plain field by name: `"Score"`.
    public init(stringLiteral field: String) { self.init(field: field) }
}
