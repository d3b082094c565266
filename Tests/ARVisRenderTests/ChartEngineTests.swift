import ARVisGraphics
import ARVisSpec
import Testing

@testable import ARVisRender

struct AxisScaleTests {
    private func collector(_ values: [PlotValue]) -> AxisScale.Collector {
        var collector = AxisScale.Collector()
        for value in values { collector.add(value) }
        return collector
    }

    @Test func linearScalesIncludeZeroAndNiceTheirTicks() {
        var scale = AxisScale(collector([.number(7508), .number(12368)]), configuration: nil)
        scale.start = 0
        scale.end = 400
        let ticks = scale.makeTicks(length: 400, spacing: 90, axis: nil)
        #expect(ticks.map(\.label) == ["0", "5,000", "10,000", "15,000"])
        #expect(ticks.first?.position == 0 && ticks.last?.position == 400)
    }

    @Test func includingZeroFalseKeepsTheDataRange() {
        var scale = AxisScale(
            collector([.number(21.2), .number(38.1)]), configuration: ScaleConfiguration(includingZero: false))
        scale.start = 0
        scale.end = 300
        let labels = scale.makeTicks(length: 300, spacing: 45, axis: nil).map(\.label)
        #expect(labels.first == "20" && labels.last == "40")
    }

    @Test func explicitDomainsAreKeptAndDatesParsed() {
        let numbers = AxisScale(collector([.number(0.2)]), configuration: ScaleConfiguration(domain: [0, 1]))
        #expect(numbers.position(of: 0) == numbers.start)
        let dates = AxisScale(
            collector([.date(0)]), configuration: ScaleConfiguration(domain: ["1855-01-01", "1949-11-19"]))
        #expect(dates.kind == .time)
        #expect(dates.position(of: -3_629_059_200) == dates.start)  // 1855-01-01T00:00:00Z
    }

    @Test func bandScalesKeepFirstAppearanceOrder() {
        var scale = AxisScale(collector([.text("b"), .text("a"), .text("b"), .text("c")]), configuration: nil)
        scale.start = 0
        scale.end = 300
        #expect(scale.categories == ["b", "a", "c"])
        #expect(scale.step == 100)
        #expect(scale.position(.text("a")) == 150)
        #expect(scale.position(.number(1)) == nil)
    }

    @Test(arguments: [(0.0, "0"), (1_500_000, "1.5M"), (250_000, "250K"), (12.5, "12.5"), (-3000, "-3,000")])
    func numberLabelsAreReadable(value: Double, label: String) {
        let step = value == 12.5 ? 0.5 : value == 1_500_000 ? 500_000 : value == 250_000 ? 50_000 : 1000
        #expect(AxisScale.numberLabel(value, step: step, largest: abs(value)) == label)
    }

    /// Every label of an axis has one unit and one number of decimals.
    @Test func oneAxisHasOneNumberFormat() {
        #expect(
            [0, 30_000, 60_000, 90_000, 120_000].map {
                AxisScale.numberLabel(Double($0), step: 30_000, largest: 120_000)
            }
                == ["0", "30K", "60K", "90K", "120K"])
        #expect([0, 0.5, 1].map { AxisScale.numberLabel($0, step: 0.5, largest: 1) } == ["0.0", "0.5", "1.0"])
        #expect(
            [0, 2_000, 4_000].map { AxisScale.numberLabel(Double($0), step: 2_000, largest: 4_000) } == [
                "0", "2,000", "4,000",
            ])
    }
}

struct TimeTicksTests {
    @Test func yearStridesStartOnRoundYears() {
        let lower = -3_629_059_200.0  // 1855-01-01
        let upper = -634_867_200.0  // 1949-11-19
        let stride = TimeTicks.Stride(unit: .year, count: 10)
        let labels = TimeTicks.instants(from: lower, to: upper, stride: stride).enumerated().map {
            TimeTicks.label($1, stride: stride, isFirst: $0 == 0, yearFormat: nil)
        }
        #expect(labels == ["1860", "1870", "1880", "1890", "1900", "1910", "1920", "1930", "1940"])
        #expect(TimeTicks.label(0, stride: stride, isFirst: true, yearFormat: .twoDigits) == "70")
    }

    @Test func automaticStridesAdaptToTheSpan() {
        #expect(TimeTicks.automaticStride(span: 8 * 86_400, target: 8) == TimeTicks.Stride(unit: .day, count: 1))
        #expect(TimeTicks.automaticStride(span: 365 * 86_400, target: 6) == TimeTicks.Stride(unit: .month, count: 3))
        #expect(TimeTicks.automaticStride(span: 3 * 3600, target: 6) == TimeTicks.Stride(unit: .minute, count: 30))
        let days = TimeTicks.instants(
            from: 1_661_817_600, to: 1_662_336_000, stride: TimeTicks.Stride(unit: .day, count: 2))
        #expect(
            days.map {
                TimeTicks.label($0, stride: TimeTicks.Stride(unit: .day, count: 2), isFirst: false, yearFormat: nil)
            } == ["Aug 30", "Sep 1", "Sep 3", "Sep 5"])
    }

    @Test func hugeOrReversedRangesGiveNoTicksInsteadOfTrapping() {
        #expect(TimeTicks.instants(from: 1e300, to: 1e301, stride: TimeTicks.Stride(unit: .year, count: 1)).isEmpty)
        #expect(TimeTicks.instants(from: 10, to: 0, stride: TimeTicks.Stride(unit: .day, count: 1)).isEmpty)
        #expect(TimeTicks.instants(from: 0, to: 1e12, stride: TimeTicks.Stride(unit: .second, count: 1)).count == 400)
    }
}

struct PlotDataTests {
    @Test func typesValuesAsIARVisDoes() throws {
        let source = DataSource(
            data: DataTable([
                "when": ["2022-08-30", "2022-08-31"], "n": [1, 2.5], "name": ["Helen", "Betty"], "flag": [true, false],
                "mixed": ["a", 3], "year": [1880, 1881],
            ]))
        let table = PlotTable(source, dateFormats: ["year": try DatePattern.compile("YYYY").get()])
        #expect(table["when"]?.kind == .date)
        #expect(table["when"]?.values.first == .date(1_661_817_600))
        #expect(table["n"]?.values == [.number(1), .number(2.5)])
        #expect(table["name"]?.kind == .text && table["flag"]?.kind == .text)
        #expect(table["mixed"]?.kind == .text && table["mixed"]?.values == [.text("a"), .text("3")])
        #expect(table["year"]?.values.first == .date(-2_840_140_800))  // 1880-01-01
        #expect(
            PlotColumn(name: "s", values: [.text("0"), .text("1")], raw: ["0", "1"], kind: .text).numericIfPossible()
                .kind == .number)
    }

    @Test func areasStackAndNormalize() throws {
        var chart = makeChart(
            DataTable(["x": ["a", "a", "b", "b"], "y": [1, 3, 2, 2], "s": ["p", "q", "p", "q"]]),
            ChartComponent.mark(.area, x: "x", y: "y"))
        chart.components[0].config.foregroundStyleField = "s"
        chart.components[0].config.stacking = .normalized
        let prepared = PreparedChart(chart)
        let tops = prepared.marks[0].data.map { $0.y?.continuous ?? -1 }
        #expect(tops == [0.25, 1, 0.5, 1])
        #expect(prepared.series == ["p", "q"])
        chart.components[0].config.stacking = .center
        #expect(PreparedChart(chart).marks[0].data.map { $0.y2?.continuous ?? -1 } == [-2, -1, -2, 0])
    }

    @Test func barsSharingACategoryStack() {
        let chart = makeChart(
            DataTable(["x": ["a", "a", "b"], "y": [1, 2, 5]]), ChartComponent.mark(.bar, x: "x", y: "y"))
        let data = PreparedChart(chart).marks[0].data
        #expect(data.map { $0.y2?.continuous ?? -1 } == [0, 1, 0])
        #expect(data.map { $0.y?.continuous ?? -1 } == [1, 3, 5])
    }

    @Test func colourPrecedenceIsExplicitThenMapThenSeries() {
        var chart = makeChart(
            DataTable(["x": ["a", "b", "c"], "y": [1, 2, 3]]), ChartComponent.mark(.bar, x: "x", y: "y"))
        chart.components[0].config.foregroundStyleColorMap = [
            ColorMapEntry(field: "x", value: "b", color: .named(.orange))
        ]
        chart.components[0].config.foregroundStyleField = "x"
        let colors = PreparedChart(chart).marks[0].data.map(\.color)
        #expect(colors[1] == Theme.color(.named(.orange)))
        #expect(colors[0] == Theme.palette[0] && colors[2] == Theme.palette[2])
        chart.components[0].config.foregroundStyleColor = .hex("#FF0000")
        #expect(PreparedChart(chart).marks[0].data.allSatisfy { $0.color == DrawingColor(red: 255, green: 0, blue: 0) })
    }
}

/// A chart over one default data source.
func makeChart(_ table: DataTable, _ marks: ChartComponent...) -> Chart {
    Chart(dataSources: [DataSource(data: table)], components: marks)
}
