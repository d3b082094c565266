import ARVisSpec

/// A cell as a chart plots it: a number, an instant (seconds since 1970, UTC) or a category.
enum PlotValue: Hashable {
    case number(Double)
    case date(Double)
    case text(String)

    var kind: ValueKind {
        switch self {
        case .number: .number
        case .date: .date
        case .text: .text
        }
    }

    /// The numeric position on a continuous scale (numbers and instants).
    var continuous: Double? {
        switch self {
        case .number(let value), .date(let value): value
        case .text: nil
        }
    }
}

/// What a column holds once typed; a continuous scale takes numbers or dates, a band scale text.
enum ValueKind: Hashable {
    case number, date, text
}

/// A typed column: one value per row (`nil` where the cell is missing or null).
struct PlotColumn {
    let name: String
    let values: [PlotValue?]
    /// The raw cells, for conditional annotations, colour maps and tooltips that compare as written.
    let raw: [DataValue]
    /// The common kind of the values; mixed columns are read as text.
    let kind: ValueKind?

    /// The column read as continuous numbers when every text cell is a number, as ranges need.
    func numericIfPossible() -> PlotColumn {
        guard kind == .text else { return self }
        var numbers: [PlotValue?] = []
        numbers.reserveCapacity(values.count)
        for value in values {
            guard let value else {
                numbers.append(nil)
                continue
            }
            guard case .text(let text) = value, let number = Double(text.trimmingSpaces()), number.isFinite else {
                return self
            }
            numbers.append(.number(number))
        }
        return PlotColumn(name: name, values: numbers, raw: raw, kind: .number)
    }
}

/// A data source with its columns typed the way iARVis types them: JSON numbers are numbers, strings
/// matching a built-in date pattern are dates, and `type: date` + `dateFormat` reparse a column.
struct PlotTable {
    let label: String
    let rowCount: Int
    private let columns: [String: PlotColumn]

    subscript(name: String) -> PlotColumn? { columns[name] }

    init(_ source: DataSource, dateFormats: [String: DatePattern]) {
        label = source.label
        rowCount = source.data.rowCount
        var columns: [String: PlotColumn] = [:]
        for column in source.data.columns {
            columns[column.name] = Self.typed(column, format: dateFormats[column.name])
        }
        self.columns = columns
    }

    private static func typed(_ column: DataTable.Column, format: DatePattern?) -> PlotColumn {
        var cache: [String: PlotValue] = [:]
        var values: [PlotValue?] = []
        values.reserveCapacity(column.values.count)
        var kind: ValueKind?
        var mixed = false
        for cell in column.values {
            let value = typedValue(cell, format: format, cache: &cache)
            if let value {
                if let kind, kind != value.kind { mixed = true }
                kind = kind ?? value.kind
            }
            values.append(value)
        }
        if mixed {
            values = column.values.map { $0.text.map(PlotValue.text) }
            kind = .text
        }
        return PlotColumn(name: column.name, values: values, raw: column.values, kind: kind)
    }

    private static func typedValue(_ cell: DataValue, format: DatePattern?, cache: inout [String: PlotValue])
        -> PlotValue?
    {
        if let format {
            return cell.text.flatMap(format.parse).map(PlotValue.date)
        }
        switch cell {
        case .int(let value): return .number(Double(value))
        case .double(let value): return .number(value)
        case .bool(let value): return .text(String(value))
        case .null: return nil
        case .string(let text):
            if let known = cache[text] { return known }
            let value: PlotValue =
                DatePattern.detect(text).flatMap { $0.parse(text) }.map(PlotValue.date) ?? .text(text)
            if cache.count < 10_000 { cache[text] = value }
            return value
        }
    }

    /// Every data source of a chart, typed; the last mark naming a field with `type: date` and a
    /// `dateFormat` decides how that field is parsed, as in iARVis.
    static func tables(for chart: Chart) -> [String: PlotTable] {
        var formats: [String: [String: DatePattern]] = [:]
        for mark in chart.components {
            let config = mark.config
            for descriptor in [config.x, config.y, config.xStart, config.xEnd, config.yStart, config.yEnd].compactMap({
                $0
            }) {
                guard descriptor.type == .date, let format = descriptor.dateFormat,
                    let pattern = try? DatePattern.compile(format).get()
                else { continue }
                formats[config.resolvedDataKey, default: [:]][descriptor.field] = pattern
            }
        }
        var tables: [String: PlotTable] = [:]
        for source in chart.dataSources where tables[source.label] == nil {
            tables[source.label] = PlotTable(source, dateFormats: formats[source.label] ?? [:])
        }
        return tables
    }
}
