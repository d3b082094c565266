/// Checks a chart component against its mark's rules and its data source.
///
/// - every channel the mark needs is set, and channels it ignores are reported;
/// - every column a channel, colour rule, annotation or tooltip names exists in the data source;
/// - every value of a column read with a `dateFormat` parses with it.
package enum MarkCheck {
    /// Checks `component`, whose `config` object is `config`, against `data`.
    package static func check(_ component: ChartComponent, data: DataTable, config: Node, _ context: DecodingContext) {
        checkChannels(component, config: config, context)
        for (name, descriptor) in component.config.setChannels {
            guard let node = config[name] else { continue }
            context.at(name) { checkField(descriptor, data: data, node: node, context) }
        }
        if let series = component.config.ySeries, let node = config["ySeries"] {
            ColumnCheck.names(series, exist: data, what: "a ySeries column", at: node, key: "ySeries", context)
        }
        styleFields(component.config, data: data, node: config, context)
    }

    /// Checks the columns named by colour rules and conditional annotations.
    package static func styleFields(
        _ config: MarkConfiguration, data: DataTable, node: Node, _ context: DecodingContext
    ) {
        if let field = config.foregroundStyleField, data[field] == nil {
            context.at("foregroundStyleField") {
                ColumnCheck.unknown(
                    field, what: "foregroundStyleField", in: data,
                    at: node["foregroundStyleField"]?.offset ?? node.offset, context)
            }
        }
        checkEntryFields(
            config.foregroundStyleColorMap?.map(\.field), key: "foregroundStyleColorMap", data: data, node: node,
            context)
        checkEntryFields(
            config.conditionalAnnotations?.map(\.field), key: "conditionalAnnotations", data: data, node: node, context)
    }

    /// Checks the columns named by Hover tooltip entries; `node` is the chart component's object.
    package static func tooltipFields(
        _ component: ChartComponent, data: DataTable, node: Node, _ context: DecodingContext
    ) {
        guard let interactions = component.interactions, let nodes = node["interactions"]?.elements,
            nodes.count == interactions.count
        else { return }
        context.at("interactions") {
            for (index, interaction) in interactions.enumerated() {
                guard case .hover(let tooltip) = interaction, let tooltipNode = nodes[index]["tooltip"] else {
                    continue
                }
                context.at(index: index) {
                    context.at("tooltip") {
                        checkEntryFields(
                            tooltip.entries?.map(\.field), key: "config", data: data, node: tooltipNode, context)
                    }
                }
            }
        }
    }

    /// Checks the `field` of each entry of the array at `node[key]`.
    package static func checkEntryFields(
        _ fields: [String]?, key: String, data: DataTable, node: Node, _ context: DecodingContext
    ) {
        guard let fields, let entries = node[key]?.elements, entries.count == fields.count else { return }
        context.at(key) {
            for (index, field) in fields.enumerated() where data[field] == nil {
                context.at(index: index) {
                    context.at("field") {
                        ColumnCheck.unknown(
                            field, what: "the field", in: data,
                            at: entries[index]["field"]?.offset ?? entries[index].offset, context)
                    }
                }
            }
        }
    }

    private static func checkField(
        _ descriptor: FieldDescriptor, data: DataTable, node: Node, _ context: DecodingContext
    ) {
        guard let column = data[descriptor.field] else {
            context.at("field") {
                ColumnCheck.unknown(
                    descriptor.field, what: "the field", in: data, at: node["field"]?.offset ?? node.offset, context)
            }
            return
        }
        guard let pattern = descriptor.datePattern, let format = descriptor.dateFormat else { return }
        for (row, value) in column.values.enumerated() {
            if value.withUTF8Text({ pattern.matches(utf8: $0) }) == false {
                context.at("dateFormat") {
                    context.error(
                        .invalidValue, at: node["dateFormat"]?.offset ?? node.offset,
                        "value \(value.node.compactText) in row \(row) of column \"\(descriptor.field)\" does not match the date format \"\(format)\"",
                        hint: value.text.flatMap(DatePattern.detect).map { "it matches \"\($0.pattern)\"" })
                }
                return
            }
        }
    }

    // MARK: - Channels per mark

    /// The channel sets a mark accepts, first match wins, with the variant's name.
    private static func variants(of type: MarkType) -> [(name: String, required: [String], optional: [String])] {
        switch type {
        case .bar: [("range BarMark", ["xStart", "xEnd", "y"], []), ("BarMark", ["x", "y"], [])]
        case .line: [("LineMark", ["x", "y"], []), ("multi-series LineMark", ["x"], [])]
        case .point: [("PointMark", ["x", "y"], [])]
        case .area: [("AreaMark", ["x", "y"], [])]
        case .rule: [("RuleMark", ["x"], ["yStart", "yEnd"])]
        case .rectangle: [("RectangleMark", ["xStart", "xEnd", "yStart", "yEnd"], [])]
        }
    }

    private static func checkChannels(_ component: ChartComponent, config: Node, _ context: DecodingContext) {
        let set = Set(component.config.setChannels.map(\.name))
        let options = variants(of: component.type)
        guard let variant = options.first(where: { Set($0.required).isSubset(of: set) }) else {
            let needs = options.map { $0.required.joined(separator: ", ") }.joined(separator: " or ")
            let closest = options.last!.required.filter { !set.contains($0) }
            context.error(
                .missingKey, at: config.offset,
                "a \(component.type.rawValue) needs the channels \(needs); \(closest.joined(separator: ", ")) missing")
            return
        }
        if component.type == .line, !set.contains("y"), component.config.ySeries == nil {
            context.error(.missingKey, at: config.offset, "a LineMark needs y, or ySeries for one line per column")
        }
        if component.type == .rule, set.contains("yStart") != set.contains("yEnd") {
            context.error(
                .missingKey, at: config.offset, "a RuleMark takes yStart and yEnd together",
                hint: "add the other one, or remove both")
        }
        for name in set.subtracting(variant.required + variant.optional).sorted() {
            context.at(name) {
                context.warning(
                    .invalidValue, at: config[name]?.offset ?? config.offset, "\(name) is not used by a \(variant.name)"
                )
            }
        }
        warnUnused("height", applies: component.type == .bar, config, mark: component.type, context)
        warnUnused("stacking", applies: component.type == .area, config, mark: component.type, context)
        warnUnused(
            "ySeries", applies: component.type == .line && !set.contains("y"), config, mark: component.type, context)
    }

    private static func warnUnused(
        _ key: String, applies: Bool, _ config: Node, mark: MarkType, _ context: DecodingContext
    ) {
        guard !applies, let node = config[key] else { return }
        context.at(key) {
            context.warning(.invalidValue, at: node.offset, "\(key) has no effect on this \(mark.rawValue)")
        }
    }
}
