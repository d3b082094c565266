import ARVisGraphics
import ARVisRender
import ARVisSpec
import Foundation
import Testing

/// Widgets laid out as the iARVis app lays them out: structure, not bytes.
struct WidgetLookTests {
    /// A drawing's text runs and shapes with the transforms of the groups around them applied.
    struct Flat {
        var texts: [(run: TextRun, transform: Transform)] = []
        var shapes: [(shape: Shape, transform: Transform)] = []

        init(_ drawing: Drawing) { collect(drawing.elements, .identity) }

        private mutating func collect(_ elements: [Element], _ transform: Transform) {
            for element in elements {
                switch element {
                case .text(let run): texts.append((run, transform))
                case .shape(let shape): shapes.append((shape, transform))
                case .group(let group): collect(group.elements, transform.concatenating(group.transform))
                default: break
                }
            }
        }

        /// Where each run's baseline starts, on the canvas.
        func origins(_ text: String) -> [Point] {
            texts.filter { $0.run.text == text }.map { $0.transform.apply($0.run.origin) }
        }

        /// Whether anything is drawn turned.
        var hasTurnedText: Bool { texts.contains { $0.transform.b != 0 || $0.transform.c != 0 } }
    }

    /// The drawing of a widget `size` wide and high, padded 20 pt, showing `component`.
    static func widget(_ component: String, width: Int = 800, height: Int = 400) throws -> Drawing {
        let json = """
            {"version": "1.0", "imageTrackingConfigurations": [{"imageURL": "https://example.org/a.jpg",
             "relationships": [{"widgetConfiguration": {"component": \(component), "relativeAnchorPoint": "top",
             "relativePosition": [0, 0, 0], "positionOffset": [0, 0, 0], "size": [\(width), \(height)],
             "padding": [20, 20, 20, 20], "showExpandButton": false}}]}]}
            """
        return try #require(try Renderer().render(try SpecReader.decode(Data(json.utf8))).first).drawing
    }

    /// A bar chart of `names` in a chart `width` wide.
    static func barChart(_ names: [String], width: Int, annotation: String = "") -> String {
        let quoted = names.map { "\"\($0)\"" }.joined(separator: ",")
        let values = names.indices.map { String($0 + 3) }.joined(separator: ",")
        return """
            {"chart": {"dataSources": [{"label": "default", "data": {"x": [\(quoted)], "y": [\(values)]}}],
             "components": [{"type": "BarMark", "config": {"x": {"field": "x"}, "y": {"field": "y"}\(annotation)}}],
             "styleConfiguration": {"maxWidth": \(width), "maxHeight": 220}}}
            """
    }

    @Test func aNarrowChartInAWideCardStartsAtTheLeadingPadding() throws {
        let flat = Flat(try Self.widget(Self.barChart(["A", "B", "C"], width: 300)))
        let xs = flat.texts.map { $0.transform.apply($0.run.origin).x }
        #expect(!xs.isEmpty && xs.min()! < 20 + 60, "the chart sits at the leading padding, not centred")
        #expect(xs.max() ?? .infinity < 20 + 300, "and keeps to its own width")
    }

    @Test func aShortTextIsPinnedTopLeading() throws {
        let flat = Flat(try Self.widget(#"{"text": {"content": "Hi"}}"#))
        let origin = try #require(flat.origins("Hi").first)
        #expect(abs(origin.x - 20) < 0.01)
        #expect(origin.y < 20 + 30)
    }

    @Test func longCategoryLabelsWrapOrEndInAnEllipsisAndAreNeverTurned() throws {
        let names = (1...8).map { "Apple MacBook Pro 16-inch (\($0)/32)" }
        let flat = Flat(try Self.widget(Self.barChart(names, width: 420)))
        #expect(!flat.hasTurnedText)
        let labels = flat.texts.map(\.run.text).filter { $0.contains("Apple") || $0.contains("/32") }
        #expect(!labels.isEmpty)
        for text in flat.texts.map(\.run.text) where text.contains("…") {
            #expect(text.hasSuffix("…") && text.filter { $0 == "…" }.count == 1, "cut only at its end: \(text)")
        }
        let firstWords = flat.origins("Apple")
        #expect(firstWords.count == 8, "every label keeps its first word whole")
    }

    @Test func categoryLabelsThatFitStayWholeOnOneLine() throws {
        let names = ["MacBook Air M1", "ThinkPad X1 Carbon", "XPS 15"]
        let flat = Flat(try Self.widget(Self.barChart(names, width: 600)))
        for name in names { #expect(flat.origins(name).count == 1, "\(name) drawn whole") }
        #expect(!flat.hasTurnedText)
    }

    @Test func annotationsAreDrawnAsTheSpecSaysAndNothingMore() throws {
        let card = """
            , "annotations": [{"position": "top", "content": {"text": {"content": "Peak", "modifiers": [{"padding": {}},
             {"background": {"color": "#FFFFFF"}}, {"roundedCorner": {"radius": 8}}]}}}]
            """
        let withCard = Flat(try Self.widget(Self.barChart(["A", "B", "C"], width: 400, annotation: card)))
        let without = Flat(try Self.widget(Self.barChart(["A", "B", "C"], width: 400)))
        #expect(withCard.origins("Peak").count == 1)
        let added = withCard.shapes.count - without.shapes.count
        #expect(added == 1, "only the card's own white background, no halo, outline or shadow")
        let translucent = withCard.shapes.filter { ($0.shape.fill?.opacity ?? 1) < 1 && ($0.shape.fill?.opacity ?? 0) > 0 }
        #expect(translucent.count == without.shapes.filter { ($0.shape.fill?.opacity ?? 1) < 1 && ($0.shape.fill?.opacity ?? 0) > 0 }.count)
    }

    @Test func aScatterPlotMatrixDrawsScattersEverywhereWithLightNamesBelowAndBeside() throws {
        let splom = """
            {"splom": {"data": {"a": [0, 1, 4, 9, 16], "b": [0.5, 0.7, 0.2, 0.9, 0.4]}, "fields": ["a", "b"]}}
            """
        let flat = Flat(try Self.widget(splom, width: 500, height: 560))
        for name in ["a", "b"] {
            let runs = flat.texts.filter { $0.run.text == name }
            #expect(runs.count == 2, "\(name) beside its row and under its column")
            #expect(runs.allSatisfy { $0.run.face.weight == .light && $0.run.size == 12 })
            #expect(runs.filter { $0.transform.b != 0 }.count == 1, "one of them turned up the left side")
        }
        let numbers = flat.texts.map(\.run.text).filter { $0.first?.isNumber == true || $0.first == "-" }
        #expect(!numbers.isEmpty && numbers.allSatisfy { !$0.hasPrefix("-") }, "no padded negative ends: \(numbers)")
        let points = flat.shapes.filter { $0.shape.fill != nil && $0.shape.stroke == nil }
        #expect(points.count >= 4, "a scatter in each of the four cells, the diagonal too")
        let below = try #require(flat.texts.first { $0.run.text == "a" && $0.transform.b == 0 })
        let numberYs = flat.texts.filter { $0.run.text.first?.isNumber == true }.map {
            $0.transform.apply($0.run.origin).y
        }
        let lowestNumber = numberYs.max() ?? .infinity
        #expect(below.transform.apply(below.run.origin).y > lowestNumber, "the column names are under the grid")
    }
}
