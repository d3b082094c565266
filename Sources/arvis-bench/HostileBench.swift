import ARVisGraphics
import ARVisPlanting
import ARVisRender
import ARVisSpatial
import ARVisSpec
import ARVisSupport
import ArgumentParser
import Foundation

/// The inputs that were quadratic or unbounded before the hardening, timed at the sizes the
/// hardening issue names.
struct HostileBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hostile",
        abstract:
            "Time hostile inputs: a 10 MB paragraph and a 100 000-character word, a million-row line chart and scatter plot, a million-vertex area, 10 000 auto widgets and 120 KB of nested Markdown links."
    )

    @Option(help: "Timed runs of each input.")
    var iterations = 3

    func run() throws {
        let renderer = try Renderer()
        let fonts = renderer.fonts
        let paragraph = Component.text(Component.Text(String(repeating: "word ", count: 2_000_000)))
        let word = Component.text(Component.Text(String(repeating: "a", count: 100_000)))
        let line = try Self.lineChart(rows: 1_000_000)
        let scatter = try Self.scatterPlot(points: 1_000_000)
        let area = Self.circle(vertices: 1_000_000)
        let environment = Self.autoWidgets(10_000)
        let links = String(repeating: "[", count: 20_000) + "a" + String(repeating: "](x)", count: 20_000)
        var trees = 0
        let times = medians(
            iterations,
            [
                { _ = try? SVGWriter().write(renderer.render(paragraph, name: "p").drawing) },
                { _ = try? SVGWriter().write(renderer.render(word, name: "w").drawing) },
                { _ = try? PNGWriter(fonts: fonts).write(renderer.render(line, name: "c").drawing) },
                {
                    try? SiteCheck.check([area], file: "area")
                    let frame = GeoFrame(around: [area])
                    trees =
                        AreaPlanner.plan(
                            PlantingSite(areas: [frame.area(area)]), mix: .uniform(spacing: 3), layout: .poisson
                        ).trees.count
                },
                { _ = SceneGraph(environment).nodes.count },
                { _ = InlineMarkdown.parse(links) },
                { _ = try? PNGWriter(fonts: fonts).write(renderer.render(scatter, name: "s").drawing) },
            ])
        print(
            String(
                format:
                    "10 MB paragraph %.2f s; 100 000-character word %.3f s; million-row line PNG %.2f s; million-vertex area %.2f s (%d trees); 10 000 auto widgets %.2f s; nested links %.1f ms",
                times[0], times[1], times[2], times[3], trees, times[4], times[5] * 1000))
        print(String(format: "RESULT hostile_paragraph_10mb_svg %.3f s", times[0]))
        print(String(format: "RESULT hostile_word_100k_svg %.3f s", times[1]))
        print(String(format: "RESULT hostile_line_1e6_png %.3f s", times[2]))
        print(String(format: "RESULT hostile_polygon_1e6_plan %.3f s", times[3]))
        print(String(format: "RESULT hostile_auto_widgets_10000_scene %.3f s", times[4]))
        print(String(format: "RESULT hostile_nested_links_120kb %.2f ms", times[5] * 1000))
        print(String(format: "RESULT hostile_scatter_1e6_png %.3f s", times[6]))
    }

    /// A scatter plot of `points` Gaussian points with 4-point symbols, in two colours.
    static func scatterPlot(points: Int) throws -> Component {
        var generator = SplitMix64(seed: 11)
        func gaussian() -> DataValue {
            let (u, v) = (
                Double.random(in: Double.ulpOfOne...1, using: &generator), Double.random(in: 0...1, using: &generator)
            )
            return .double((-2 * log(u)).squareRoot() * cos(2 * .pi * v))
        }
        let data = DataTable([
            "x": (0..<points).map { _ in gaussian() }, "y": (0..<points).map { _ in gaussian() },
            "kind": (0..<points).map { .string($0 % 3 == 0 ? "a" : "b") },
        ])
        let json =
            #"{"dataSources": [{"label": "default", "data": {"x": [0], "y": [0], "kind": ["a"]}}], "components": [{"type": "PointMark", "config": {"x": {"field": "x"}, "y": {"field": "y"}, "foregroundStyleField": "kind", "symbolSize": {"width": 4, "height": 4}}}]}"#
        guard case .chart(var chart) = try SpecReader.decode(Data(json.utf8)) else {
            throw ValidationError("the scatter template is not a chart")
        }
        chart.dataSources[0].data = data
        return .chart(chart)
    }

    /// A line chart of a random walk.
    static func lineChart(rows: Int) throws -> Component {
        var generator = SplitMix64(seed: 7)
        var value = 0.0
        let ys = (0..<rows).map { _ -> DataValue in
            value += Double.random(in: -1...1, using: &generator)
            return .double(value)
        }
        let data = DataTable(["x": (0..<rows).map { DataValue.int($0) }, "y": ys])
        let json =
            #"{"dataSources": [{"label": "default", "data": {"x": [0], "y": [0]}}], "components": [{"type": "LineMark", "config": {"x": {"field": "x"}, "y": {"field": "y"}}}]}"#
        guard case .chart(var chart) = try SpecReader.decode(Data(json.utf8)) else {
            throw ValidationError("the chart template is not a chart")
        }
        chart.dataSources[0].data = data
        return .chart(chart)
    }

    /// A round parcel near Leiria with `vertices` corners.
    static func circle(vertices: Int) -> GeoPolygon {
        GeoPolygon(
            outer: (0...vertices).map { index in
                let angle = 2 * Double.pi * Double(index % vertices) / Double(vertices)
                return GeoCoordinate(latitude: 39.7 + 0.002 * sin(angle), longitude: -8.8 + 0.002 * cos(angle))
            })
    }

    /// One image target with `count` auto widgets.
    static func autoWidgets(_ count: Int) -> Environment {
        var widget = WidgetConfiguration(component: .text(Component.Text("x")))
        widget.relativeAnchorPoint = .auto
        widget.size = Size(width: 100, height: 50)
        let relationships = Array(repeating: Relationship(widget), count: count)
        return Environment(imageTrackingConfigurations: [
            ImageTrackingConfiguration(imageURL: "https://example.org/a.jpg", relationships: relationships)
        ])
    }
}
