import ARVisPipeline
import ARVisSpec
import Testing

/// Live dataset rows appended to the charts that follow them, as a device appends them.
struct LiveRowsTests {
    private let chart = Chart(
        dataSources: [
            DataSource(
                data: DataTable(["time": [.string("09:59")], "celsius": [.double(19.5)]]),
                dataset: DatasetLink(name: "hall", rows: 2))
        ],
        components: [])

    @Test func rowsFillTheDeclaredColumnsWithinTheWindow() throws {
        let rows: [LiveRow] = [
            ["time": .string("10:00"), "celsius": .double(20)], ["time": .string("10:01")],
            ["time": .string("10:02"), "celsius": .int(21), "humidity": .int(40)],
        ]
        let stack = Component.vStack(.init(elements: [.chart(chart)]))
        guard case .vStack(let drawn) = stack.appendingLiveRows(["hall": rows]),
            case .chart(let appended)? = drawn.elements.first
        else {
            Issue.record("not a stack holding a chart")
            return
        }
        let data = appended.dataSources[0].data
        #expect(data["time"]?.values == [.string("09:59"), .string("10:01"), .string("10:02")], "the newest 2 rows")
        #expect(data["celsius"]?.values == [.double(19.5), .null, .int(21)], "a missing value is null")
        #expect(data["humidity"] == nil, "undeclared columns are left out")
        #expect(Component.chart(chart).datasetLinks["hall"]?.rowLimit == 2)
        #expect(Component.chart(chart).appendingLiveRows([:]) == .chart(chart))
    }
}
