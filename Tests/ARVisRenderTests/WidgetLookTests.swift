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
                case .media(let media): collect(media.fallback, transform)
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
        let words = Set(names.flatMap { $0.split(separator: " ") })
        let labels = flat.texts.map(\.run.text).filter {
            $0.contains("Apple") || $0.contains("/32") || $0.contains("inch")
        }
        #expect(flat.texts.filter { $0.run.text.hasPrefix("Apple") }.count >= 4, "at least every other name shown")
        for label in labels {
            for word in label.split(separator: " ") {
                #expect(words.contains(word) || word.hasSuffix("…"), "\(word) in \(label) is whole or ends in …")
            }
            if label.contains("…") { #expect(label.hasSuffix("…") && label.filter { $0 == "…" }.count == 1) }
        }
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
        let translucent = withCard.shapes.filter {
            ($0.shape.fill?.opacity ?? 1) < 1 && ($0.shape.fill?.opacity ?? 0) > 0
        }
        #expect(
            translucent.count
                == without.shapes.filter { ($0.shape.fill?.opacity ?? 1) < 1 && ($0.shape.fill?.opacity ?? 0) > 0 }
                .count)
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

    @Test func theAudioPlayerIsIARVisCard() throws {
        let flat = Flat(
            try Self.widget(#"{"audio": {"title": "Introduction audio", "url": "https://example.org/a.mp3"}}"#))
        let title = try #require(flat.texts.first { $0.run.text == "Introduction audio" })
        #expect(title.run.size == 18 && title.run.face.weight == .medium)
        let card = try #require(flat.shapes.first { $0.shape.fill == .white }, "a white card")
        let shadows = flat.shapes.filter { ($0.shape.fill?.opacity ?? 1) < 0.05 && $0.shape.fill?.red == 0 }
        #expect(!shadows.isEmpty, "with a soft shadow")
        let times = flat.texts.filter { $0.run.text == "00:00" }
        #expect(times.count == 1)
        #expect(times.allSatisfy { $0.run.face.family == .mono && $0.run.size == 14 }, "\(times.map(\.run))")
        _ = card
    }

    @Test func aYouTubeThumbnailHasA50PointDarkCircle() throws {
        let drawing = try Self.widget(
            #"{"video": {"url": "https://youtu.be/D7WdO4DcHaA", "width": 480, "height": 270}}"#)
        let flat = Flat(drawing)
        let circles = flat.shapes.filter { shape in
            guard let fill = shape.shape.fill, fill.red == 0, fill.opacity > 0.5 else { return false }
            let points = shape.shape.path.flattened().flatMap(\.points)
            let width = (points.map(\.x).max() ?? 0) - (points.map(\.x).min() ?? 0)
            return abs(width - 50) < 0.5
        }
        #expect(circles.count == 1)
        #expect(!flat.texts.contains { $0.run.text == "YouTube" }, "no caption iARVis does not draw")
    }

    @Test func aSymbolOnThePlotsEdgeIsDrawnWhole() throws {
        let chart = """
            {"chart": {"dataSources": [{"label": "default", "data": {"x": [0, 5, 10], "y": [0, 5, 10]}}],
             "components": [{"type": "PointMark", "config": {"x": {"field": "x"}, "y": {"field": "y"},
             "symbol": {"type": "Square"}, "symbolSize": {"width": 14, "height": 14}}}],
             "styleConfiguration": {"maxWidth": 300, "maxHeight": 200}}}
            """
        let drawing = try Self.widget(chart, width: 400, height: 300)
        // Every clip around the marks holds the whole of each marker.
        func check(_ elements: [Element], clip: [Point]?) {
            for element in elements {
                switch element {
                case .group(let group):
                    check(group.elements, clip: group.clip?.flattened().flatMap(\.points) ?? clip)
                case .shape(let shape) where shape.fill != nil && shape.stroke == nil:
                    guard let clip, let minX = clip.map(\.x).min(), let maxX = clip.map(\.x).max() else { continue }
                    let xs = shape.path.flattened().flatMap(\.points).map(\.x)
                    if let low = xs.min(), let high = xs.max(), high - low < 20 {
                        #expect(
                            low >= minX - 0.01 && high <= maxX + 0.01,
                            "a marker at \(low)…\(high) inside \(minX)…\(maxX)")
                    }
                default: break
                }
            }
        }
        check(drawing.elements, clip: nil)
    }

    @Test func xLabelsInANarrowPanelKeepApart() throws {
        let chart = """
            {"chart": {"dataSources": [{"label": "default", "data": {"x": [1000, 250000, 500000, 1000000], "y": [1, 2, 3, 4]}}],
             "components": [{"type": "LineMark", "config": {"x": {"field": "x"}, "y": {"field": "y"}}}],
             "styleConfiguration": {"maxWidth": 150, "maxHeight": 120}}}
            """
        let flat = Flat(try Self.widget(chart, width: 190, height: 200))
        let baseline = flat.texts.map { $0.transform.apply($0.run.origin).y }.max() ?? 0
        let fonts = try FontLibrary.standard()
        let labels: [(Double, Double)] = flat.texts.filter { abs($0.transform.apply($0.run.origin).y - baseline) < 0.5 }
            .map { text in
                let x = text.transform.apply(text.run.origin).x
                return (x, x + fonts.font(for: text.run.face).width(of: text.run.text, size: text.run.size))
            }.sorted { $0.0 < $1.0 }
        #expect(labels.count >= 2)
        for (left, right) in zip(labels, labels.dropFirst()) {
            #expect(left.1 <= right.0, "\(left) and \(right) overlap")
        }
    }

    /// Text is set in Inter where Debian's fonts-inter is installed, with its medium and semibold weights.
    @Test func mediumWeightIsNotRegular() throws {
        let flat = Flat(
            try Self.widget(#"{"text": {"content": "Putuo", "fontStyle": {"size": 17, "weight": "medium"}}}"#))
        let run = try #require(flat.texts.first { $0.run.text == "Putuo" })
        #expect(run.run.face.weight == .medium)
        let fonts = try FontLibrary.standard()
        if fonts.sansName == "Inter" {
            let medium = fonts.font(for: run.run.face).width(of: "Putuo", size: 17)
            let regular = fonts.font(for: .regular).width(of: "Putuo", size: 17)
            #expect(medium > regular, "Inter Medium is its own, wider face")
        }
    }
}
