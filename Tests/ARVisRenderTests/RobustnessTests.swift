import ARVisGraphics
import ARVisRender
import ARVisSpec
import ARVisSupport
import Foundation
import Testing

/// Bad values inside valid specs render something sensible instead of crashing or hanging.
struct RobustnessTests {
    private func render(_ json: String) throws -> [RenderedWidget] {
        try Renderer().render(try SpecReader.decode(Data(json.utf8)))
    }

    private func svg(_ json: String) throws -> String {
        SVGWriter().write(try #require(try render(json).first).drawing)
    }

    /// The deepest document any reader accepts reads, renders and writes back on a test thread's stack.
    @Test func theDeepestAcceptedDocumentRendersAndRoundTrips() throws {
        let levels = (ReadOptions.largestMaximumDepth - 10) / 3
        let json =
            String(repeating: #"{"vStack":{"elements":["#, count: levels) + #"{"text":{"content":"deep"}}"#
            + String(repeating: "]}}", count: levels)
        let options = ReadOptions(maximumDepth: ReadOptions.largestMaximumDepth)
        let document = try SpecReader.decode(Data(json.utf8), options: options)
        let drawing = try #require(try Renderer().render(document).first).drawing
        #expect(SVGWriter().write(drawing).contains(">deep<"))
        #expect(try PNGWriter(fonts: try FontLibrary.standard()).write(drawing).count > 50)
        #expect(try SpecReader.decode(Data(SpecWriter.json(document).utf8), options: options) == document)
        #expect(ReadOptions(maximumDepth: 1_000_000).maximumDepth == ReadOptions.largestMaximumDepth)
        let tooDeep = SpecReader.read(
            json: Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8),
            options: ReadOptions(maximumDepth: 1_000_000))
        #expect(tooDeep.diagnostics.first?.code == .depthLimit)
    }

    @Test func widgetsOverTheLimitsAreRefusedWithTheLimitNamed() throws {
        let rows = (0..<2_000).map { "\"\($0)\"" }.joined(separator: ",")
        let table = #"{"table": {"configuration": {"tableData": {"data": {"a": [\#(rows)], "b": [\#(rows)]}}}}}"#
        let document = try SpecReader.decode(Data(table.utf8))
        var options = RenderOptions()
        options.limits.maximumTableCells = 1_000
        let error = #expect(throws: RenderError.self) { try Renderer(options: options).render(document) }
        #expect(
            error?.message == "it would draw 4 002 table cells, over the limit of 1 000 (raise it with --max-cells)")
        options.limits.maximumTableCells = 5_000
        #expect(try Renderer(options: options).render(document).count == 1)
        let fields = (0..<31).map { "\"f\($0)\"" }
        let splom =
            #"{"splom": {"data": {\#(fields.map { "\($0): [1, 2]" }.joined(separator: ","))}, "fields": [\#(fields.joined(separator: ","))]}}"#
        #expect(throws: RenderError.self) { try Renderer().render(try SpecReader.decode(Data(splom.utf8))) }
    }

    /// A tooltip of the tallest bar flips below it instead of being cut off above the view.
    @Test func tooltipsStayInsideTheView() throws {
        let json =
            #"{"dataSources": [{"label": "default", "data": {"x": ["a", "b"], "y": [10, 100]}}], "components": [{"type": "BarMark", "config": {"x": {"field": "x"}, "y": {"field": "y"}}, "interactions": [{"type": "Hover", "tooltip": {"type": "Auto"}}]}]}"#
        let drawing = try #require(try render(json).first).drawing
        var tops: [Double] = []
        func visit(_ elements: [Element], offset: Double) {
            for element in elements {
                guard case .group(let group) = element else { continue }
                if case .tooltip = group.role, case .shape(let bubble)? = group.elements.dropFirst().first {
                    tops.append(
                        bubble.path.flattened(tolerance: 0.5).flatMap { $0.points.map { $0.y } }.min()! + offset)
                }
                visit(group.elements, offset: offset + group.transform.ty)
            }
        }
        visit(drawing.elements, offset: 0)
        #expect(tops.count == 2)
        #expect(tops.allSatisfy { $0 >= 0 }, "\(tops)")
    }

    /// `clipToCircle` clips a wide image to a circle of its height, as SwiftUI's Circle does, not an ellipse.
    @Test func clipToCircleIsACircle() throws {
        let svg = try svg(
            #"{"image": {"url": "a.png", "contentMode": "fill", "width": 300, "height": 100, "clipToCircle": true}}"#)
        let clip = try #require(
            svg.components(separatedBy: "<clipPath").last?.components(separatedBy: "d=\"").last?.components(
                separatedBy: "\""
            ).first)
        let numbers = clip.components(separatedBy: CharacterSet(charactersIn: "0123456789.-").inverted).compactMap(
            Double.init)
        let xs = stride(from: 0, to: numbers.count - 1, by: 2).map { numbers[$0] }
        let ys = stride(from: 1, to: numbers.count, by: 2).map { numbers[$0] }
        #expect(abs((xs.max()! - xs.min()!) - (ys.max()! - ys.min()!)) < 1e-6)
    }

    @Test func scatterPlotMatricesTitleRowsAndColumns() throws {
        let svg = try svg(#"{"splom": {"data": {"a": [1, 2, 3], "b": [10, 20, 30]}, "fields": ["a", "b"]}}"#)
        #expect(svg.components(separatedBy: ">a</text>").count - 1 == 2)
        #expect(svg.components(separatedBy: ">b</text>").count - 1 == 2)
        #expect(svg.contains("rotate") || svg.contains("matrix(0 -1"))
    }

    @Test func emptyDataSourceSaysSo() throws {
        let svg = try svg(
            #"{"dataSources": [{"label": "default", "data": {"x": [], "y": []}}], "components": [{"type": "BarMark", "config": {"x": {"field": "x"}, "y": {"field": "y"}}}]}"#
        )
        #expect(svg.contains("No data to plot"))
    }

    @Test func mixedTypesBecomeCategories() throws {
        let svg = try svg(
            #"{"dataSources": [{"label": "default", "data": {"x": ["a", 2, true, null, 3.5], "y": [1, 2, 3, 4, 5]}}], "components": [{"type": "BarMark", "config": {"x": {"field": "x"}, "y": {"field": "y"}}}]}"#
        )
        for label in [">a<", ">2<", ">true<", ">3.5<"] { #expect(svg.contains(label)) }
    }

    @Test func zeroSizedWidgetsRender() throws {
        // The reader refuses a zero size; a widget built in code can still have one.
        var widget = WidgetConfiguration(component: .text(Component.Text("hidden")))
        widget.size = Size(width: 0, height: 0)
        widget.padding = EdgeInsets(all: 0)
        let drawing = try Renderer().render(widget, name: "w").drawing
        let png = try PNGWriter(fonts: try FontLibrary.standard()).write(drawing)
        #expect(png.count > 50)
        #expect(SVGWriter().write(drawing).contains("viewBox=\"0 0 0 0\""))
    }

    @Test func aHundredThousandRowChartRendersInTime() throws {
        let count = 100_000
        let xs = (0..<count).map(String.init).joined(separator: ",")
        let ys = (0..<count).map { String(($0 * 7919) % 1000) }.joined(separator: ",")
        let json =
            #"{"dataSources": [{"label": "default", "data": {"x": [\#(xs)], "y": [\#(ys)]}}], "components": [{"type": "LineMark", "config": {"x": {"field": "x"}, "y": {"field": "y"}}}]}"#
        let start = Date()
        let widgets = try render(json)
        let svg = SVGWriter().write(widgets[0].drawing)
        #expect(svg.count > 100_000)
        #expect(Date().timeIntervalSince(start) < 60)
    }

    @Test func deeplyNestedStacksRender() throws {
        var component = #"{"text": {"content": "deep"}}"#
        for index in 0..<80 {
            component =
                index % 2 == 0
                ? #"{"vStack": {"elements": [\#(component)]}}"# : #"{"hStack": {"elements": [\#(component)]}}"#
        }
        let svg = try svg(component)
        #expect(svg.contains(">deep<"))
    }

    @Test func hostileTextIsEscaped() throws {
        let svg = try svg(#"{"text": {"content": "<script>alert('x')</script> & \"quotes\" \u0007bell"}}"#)
        #expect(!svg.contains("<script>"))
        #expect(svg.contains("&lt;script&gt;"))
    }

    @Test func unknownMarkFieldsDropTheMarkNotTheChart() throws {
        // A field the validator would reject is tested at the chart-engine level: the data source has no "y".
        var chart = Chart(dataSources: [DataSource(data: DataTable(["x": ["a"]]))], components: [])
        chart.components = [ChartComponent.mark(.bar, x: "x", y: "missing")]
        let drawing = try Renderer().render(.chart(chart), name: "c").drawing
        #expect(SVGWriter().write(drawing).contains("No data to plot"))
    }
}

/// Interactions become hover targets, tooltips and links in the interactive output.
struct InteractionRenderTests {
    @Test func hoverTooltipsAndClicksAreWired() throws {
        let json = #"""
            {"dataSources": [{"label": "default", "data": {"Name": ["Ensor", "Daveluy"], "Start": ["1888-01-01", "1949-01-01"], "End": ["1949-01-01", "1950-01-01"]}}],
             "components": [{"type": "BarMark", "config": {"xStart": {"field": "Start"}, "xEnd": {"field": "End"}, "y": {"field": "Name"}},
               "interactions": [{"type": "Hover", "tooltip": {"type": "Manual", "config": [{"field": "Name", "value": "Daveluy", "content": {"text": {"content": "Inherited"}}}]}},
                                {"type": "Click", "action": {"type": "OpenURL", "config": {"url": "https://example.org/provenance"}}}]}]}
            """#
        let drawing = try #require(try Renderer().render(try SpecReader.decode(Data(json.utf8))).first).drawing
        let page = HTMLWriter().page(drawing)
        #expect(page.contains("data-tooltip=\"tooltip"))
        #expect(page.contains("class=\"arvis-tooltip\" visibility=\"hidden\""))
        #expect(page.contains(">Inherited<"))
        #expect(page.contains("<a href=\"https://example.org/provenance\""))
        #expect(!SVGWriter().write(drawing).contains(">Inherited<"))
    }
}
