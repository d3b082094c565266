import ARVisGraphics
import ARVisRender
import ARVisSpec
import ArgumentParser
import Foundation

/// Rendering speed: a bar chart spec to SVG, a full widget to PNG, and the 1 161-row line chart to SVG.
struct RenderBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract:
            "Time spec bytes → SVG for the README bar chart and the baby-names line chart, and a 1024×768 widget → PNG."
    )

    @Option(help: "Timed repetitions of each measurement.")
    var iterations = 200

    func run() throws {
        let renderer = try Renderer()
        let barChart = try Data(contentsOf: URL(fileURLWithPath: "Examples/laptop-benchmark-bar-chart.json"))
        let barSVG = medians(iterations, [{ _ = svg(barChart, renderer) }])[0]
        print(String(format: "laptop bar chart, spec bytes → SVG:        %8.3f ms", barSVG * 1000))

        let widget = try museumWidget()
        let png = PNGWriter(fonts: renderer.fonts, scale: 1)
        let pngSeconds = medians(
            max(10, iterations / 5), [{ _ = try? png.write(try renderer.render(widget, name: "museum").drawing) }])[0]
        print(String(format: "1024×768 museum widget → PNG at 1×:       %8.3f ms", pngSeconds * 1000))

        print(String(format: "RESULT bar_chart_svg_median %.4f ms", barSVG * 1000))
        print(String(format: "RESULT widget_png_median %.3f ms", pngSeconds * 1000))

        let babyNames = URL(fileURLWithPath: "../shared/corpus/iarvis/charts/example3_BabyNamesLineChart.json")
        guard let lineChart = try? Data(contentsOf: babyNames) else {
            print("skipped: baby-names line chart (\(babyNames.path) is absent)")
            return
        }
        let lineSVG = medians(max(20, iterations / 2), [{ _ = svg(lineChart, renderer) }])[0]
        print(String(format: "baby-names line chart (1 161 rows) → SVG: %8.3f ms", lineSVG * 1000))
        print(String(format: "RESULT baby_names_svg_median %.3f ms", lineSVG * 1000))
    }

    /// The museum example component in a default 1024×768 widget.
    private func museumWidget() throws -> WidgetConfiguration {
        let data = try Data(contentsOf: URL(fileURLWithPath: "Examples/museum-artwork-widget.json"))
        guard case .component(let component) = try SpecReader.decode(data) else {
            throw ValidationError("Examples/museum-artwork-widget.json is not a component")
        }
        return WidgetConfiguration(component: component)
    }
}

/// Spec bytes → SVG text, the whole pipeline: read, validate, lay out, write.
func svg(_ data: Data, _ renderer: Renderer) -> String {
    guard let document = SpecReader.read(json: data).document, let widget = try? renderer.render(document).first else {
        return ""
    }
    return SVGWriter().write(widget.drawing)
}
