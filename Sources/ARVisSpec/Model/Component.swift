/// A piece of widget content: iARVis's `ViewElementComponent`, an object with one key naming its kind.
///
/// ```json
/// {"vStack": {"alignment": "leading", "elements": [{"text": {"content": "**Born**: 1860"}}]}}
/// ```
public indirect enum Component: Sendable, Hashable {
    case text(Text)
    case image(Image)
    case sfSymbol(SFSymbol)
    case audio(Audio)
    case video(Video)
    case link(Link)
    case hStack(HStack)
    case vStack(VStack)
    case spacer(Spacer)
    case divider(Divider)
    case table(Table)
    case chart(Chart)
    case segmentedControl(SegmentedControl)
    case grid(Grid)
    case gridRow(GridRow)
    case splom(Splom)

    /// The key that names each kind, in iARVis's order.
    public static let kindNames = [
        "text", "image", "sfSymbol", "audio", "video", "link", "hStack", "vStack", "spacer", "divider", "table",
        "chart", "segmentedControl", "grid", "gridRow", "splom",
    ]

    /// The key naming this component's kind.
    public var kindName: String {
        switch self {
        case .text: "text"
        case .image: "image"
        case .sfSymbol: "sfSymbol"
        case .audio: "audio"
        case .video: "video"
        case .link: "link"
        case .hStack: "hStack"
        case .vStack: "vStack"
        case .spacer: "spacer"
        case .divider: "divider"
        case .table: "table"
        case .chart: "chart"
        case .segmentedControl: "segmentedControl"
        case .grid: "grid"
        case .gridRow: "gridRow"
        case .splom: "splom"
        }
    }

    /// The modifiers the component applies, in order; spacers, charts and SPLOMs take none.
    public var modifiers: [Modifier] {
        let list: [Modifier]? =
            switch self {
            case .text(let value): value.modifiers
            case .image(let value): value.modifiers
            case .sfSymbol(let value): value.modifiers
            case .audio(let value): value.modifiers
            case .video(let value): value.modifiers
            case .link(let value): value.modifiers
            case .hStack(let value): value.modifiers
            case .vStack(let value): value.modifiers
            case .divider(let value): value.modifiers
            case .table(let value): value.modifiers
            case .segmentedControl(let value): value.modifiers
            case .grid(let value): value.modifiers
            case .gridRow(let value): value.modifiers
            case .spacer, .chart, .splom: nil
            }
        return list ?? []
    }

    /// The components directly inside this one (stack elements, grid rows, segment contents).
    public var children: [Component] {
        switch self {
        case .hStack(let stack): stack.elements
        case .vStack(let stack): stack.elements
        case .grid(let grid): grid.rows
        case .gridRow(let row): row.rowElements
        case .segmentedControl(let control): control.items.map(\.component)
        default: []
        }
    }
}

extension Component: NodeCodable {
    package init?(from node: Node, in context: DecodingContext) {
        guard
            let member = SingleKeyObject.read(
                node, context, cases: Self.kindNames, what: "component",
                manyKeysHint: "put several components in a vStack or hStack: {\"vStack\": {\"elements\": [ … ]}}")
        else { return nil }
        let value = member.value
        let component: Component? = context.at(member.key) {
            switch member.key {
            case "text": Text(from: value, in: context).map(Component.text)
            case "image": Image(from: value, in: context).map(Component.image)
            case "sfSymbol": SFSymbol(from: value, in: context).map(Component.sfSymbol)
            case "audio": Audio(from: value, in: context).map(Component.audio)
            case "video": Video(from: value, in: context).map(Component.video)
            case "link": Link(from: value, in: context).map(Component.link)
            case "hStack": HStack(from: value, in: context).map(Component.hStack)
            case "vStack": VStack(from: value, in: context).map(Component.vStack)
            case "spacer": Spacer(from: value, in: context).map(Component.spacer)
            case "divider": Divider(from: value, in: context).map(Component.divider)
            case "table": Table(from: value, in: context).map(Component.table)
            case "chart": Chart(from: value, in: context).map(Component.chart)
            case "segmentedControl": SegmentedControl(from: value, in: context).map(Component.segmentedControl)
            case "grid": Grid(from: value, in: context).map(Component.grid)
            case "gridRow": GridRow(from: value, in: context).map(Component.gridRow)
            default: Splom(from: value, in: context).map(Component.splom)
            }
        }
        guard let component else { return nil }
        self = component
    }

    package var node: Node {
        let payload: Node =
            switch self {
            case .text(let value): value.node
            case .image(let value): value.node
            case .sfSymbol(let value): value.node
            case .audio(let value): value.node
            case .video(let value): value.node
            case .link(let value): value.node
            case .hStack(let value): value.node
            case .vStack(let value): value.node
            case .spacer(let value): value.node
            case .divider(let value): value.node
            case .table(let value): value.node
            case .chart(let value): value.node
            case .segmentedControl(let value): value.node
            case .grid(let value): value.node
            case .gridRow(let value): value.node
            case .splom(let value): value.node
            }
        return .object([(kindName, payload)])
    }

    package static var schema: Schema {
        SingleKeyObject.schema([
            ("text", .ref(Text.self)), ("image", .ref(Image.self)), ("sfSymbol", .ref(SFSymbol.self)),
            ("audio", .ref(Audio.self)), ("video", .ref(Video.self)), ("link", .ref(Link.self)),
            ("hStack", .ref(HStack.self)), ("vStack", .ref(VStack.self)), ("spacer", .ref(Spacer.self)),
            ("divider", .ref(Divider.self)), ("table", .ref(Table.self)), ("chart", .ref(Chart.self)),
            ("segmentedControl", .ref(SegmentedControl.self)), ("grid", .ref(Grid.self)),
            ("gridRow", .ref(GridRow.self)), ("splom", .ref(Splom.self)),
        ])
    }
}

extension Schema {
    /// The `modifiers` key shared by most components.
    static let modifiersProperty = ObjectShape.Property.optional(
        "modifiers", .array(.ref(Modifier.self)), "Modifiers applied in order after the component is built.")

    /// A list of components.
    static var components: Schema { .array(.ref(Component.self)) }
}
