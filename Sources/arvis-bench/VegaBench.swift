import ARVisRender
import ArgumentParser
import Foundation

/// ARVis against Vega-Lite (vl-convert-python) drawing the same bar chart to SVG, each timed in-process.
struct RenderVersusVega: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render-vs-vega",
        abstract: "Time the README bar chart → SVG in ARVis and, as a Vega-Lite spec, in vl-convert-python.",
        discussion: """
            Runs Benchmarks/vega_render.py (pip install vl-convert-python) on
            Benchmarks/laptop-benchmark-bar-chart.vl.json; both sides are timed in their own process over
            many repetitions after a warm-up, and the medians are compared.
            """)

    @Option(help: "Timed repetitions of each side.")
    var iterations = 200

    @Option(help: "The Python interpreter that has vl-convert-python.")
    var python = "python3"

    func run() throws {
        let renderer = try Renderer()
        let spec = try Data(contentsOf: URL(fileURLWithPath: "Examples/laptop-benchmark-bar-chart.json"))
        let arvis = medians(iterations, [{ _ = svg(spec, renderer) }])[0]
        let vega = try vegaMedian()
        print(String(format: "ARVis, spec bytes → SVG:            %9.3f ms", arvis * 1000))
        print(String(format: "vl-convert, Vega-Lite spec → SVG:   %9.3f ms", vega * 1000))
        print(String(format: "RESULT arvis_bar_svg_median %.4f ms", arvis * 1000))
        print(String(format: "RESULT vega_bar_svg_median %.3f ms", vega * 1000))
        print(String(format: "RESULT arvis_vs_vega_speedup %.1f x", vega / arvis))
    }

    /// Runs the Python side and reads its `RESULT vega_svg_median <ms> ms` line.
    private func vegaMedian() throws -> Double {
        let side = try PythonSide(
            python: python, script: "Benchmarks/vega_render.py",
            arguments: ["--iterations", String(iterations), "Benchmarks/laptop-benchmark-bar-chart.vl.json"],
            install: "is vl-convert-python installed? pip install vl-convert-python")
        return try side.figure("vega_svg_median") / 1000
    }
}
